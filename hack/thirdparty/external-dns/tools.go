//go:build tools

// Package externaldnstools pins the external-dns that hack/thirdparty/build.sh builds for the
// tests; nothing here is part of kubectl-ctrldiag itself.
package externaldnstools

import _ "sigs.k8s.io/external-dns"
