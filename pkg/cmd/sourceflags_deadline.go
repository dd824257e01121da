package cmd

import (
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
)

// CheckDeadline is the one check of --deadline, for every verb that takes it: the run's
// clock (source.Clock) bounds the whole run with it.
func CheckDeadline(d time.Duration) error {
	if d <= 0 {
		return cli.UsageError("--deadline must be positive, got %s", d)
	}
	return nil
}
