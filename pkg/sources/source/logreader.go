package source

import (
	"context"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/logs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
)

// LogReader is a source that can read the log of a target's controller (a cluster, or a
// snapshot that kept what one gave). The run layer asks only for the targets read whose
// process is not a standby.
type LogReader interface {
	// Log reads the recent log of the container behind t once, req saying how much (its
	// Namespace, Pod and Container are the source's to fill). It never fails: a log that
	// cannot be had is a Log with a note; nil means the source has none (saved pages, a
	// snapshot made without one).
	Log(ctx context.Context, t model.Target, req logs.PodLogRequest) *logs.Log
}
