//go:build tools

// Package sourcecontrollertools pins the Flux source-controller that hack/thirdparty/build.sh
// builds for the tests; nothing here is part of kubectl-ctrldiag itself.
package sourcecontrollertools

import _ "github.com/fluxcd/source-controller"
