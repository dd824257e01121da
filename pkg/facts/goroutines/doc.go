// Package goroutines reads a Go process's goroutine dump (net/http/pprof's
// /debug/pprof/goroutine?debug=2) and tells where the controller's workers wait: the
// goroutines that run reconciles (controller-runtime's reconcileHandler, client-go workers'
// processNextWorkItem), grouped by identical stacks, with how long they have been blocked, on
// what, and the first frame of the controller's own code. It parses untrusted text: bounded
// in goroutines, frames, line length and the memory it keeps, and it never fails on a line it
// does not know.
package goroutines
