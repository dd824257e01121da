//go:build tools

// Package thanostools pins the Thanos binary the e2e tests run; hack/thanos/build.sh builds it.
package thanostools

import _ "github.com/thanos-io/thanos/cmd/thanos"
