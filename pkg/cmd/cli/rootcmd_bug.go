package cli

import (
	"fmt"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/version"
)

// Bug is what the user reads of a panic: that it is a bug of this build, what to do with it,
// and the panic's value (escaped by the caller) without the stack.
func Bug(p any) string {
	v := version.Get()
	return fmt.Sprintf("internal error in kubectl-ctrldiag %s (commit %s): %v; this is a bug: please report it with the command line you ran",
		v.Version, v.Commit, p)
}
