package source

import (
	"context"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/goroutines"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
)

// Profiler is a source that can read a target's goroutine dump (a cluster, or a snapshot that
// kept one). The run layer asks only for targets the user selected whose queues show stuck,
// slow or saturated workers.
type Profiler interface {
	// Goroutines reads the dump of the process behind t once. It never fails: a dump that
	// cannot be had is a profile with a note; nil means the source has nothing to say (a
	// snapshot made without one).
	Goroutines(ctx context.Context, t model.Target, w goroutines.Want, b goroutines.Bounds) *goroutines.Profile
}
