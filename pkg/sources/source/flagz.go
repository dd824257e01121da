package source

import (
	"context"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
)

// FlagzReader is a source that can read the flags a target's process says it runs with (its
// /flagz: kube-controller-manager's). The run layer asks only for the targets read that serve
// one, and only for the flags of their knobs.
type FlagzReader interface {
	// Flagz reads the flags named keep (without dashes) once. It never fails: flags that
	// cannot be had are a note; nil means the source has nothing to say.
	Flagz(ctx context.Context, t model.Target, keep []string, timeout time.Duration) *knobs.Flagz
}
