package sourceflags

import (
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/exitcode"
)

// CheckDeadline is the one check of --deadline, for every verb that takes it: the run's
// clock (source.Clock) bounds the whole run with it.
func CheckDeadline(d time.Duration) error {
	if d <= 0 {
		return exitcode.UsageError("--deadline must be positive, got %s", d)
	}
	return nil
}
