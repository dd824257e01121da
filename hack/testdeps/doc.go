// Package testdeps holds the tests of hack/test-deps.sh, the one list of system packages the
// tests use: docs/testing.md shows the same list, and a missing package is named before any build.
package testdeps
