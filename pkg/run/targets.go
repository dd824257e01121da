package run

import (
	"context"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// TargetsResult is what discovery found, and what to say beside it.
type TargetsResult struct {
	List view.TargetList
	// Warnings are things the user should know (stderr).
	Warnings []string
}

// targetsWith opens env's source, which finds the targets and checks how each can be reached,
// and reads nothing. (`targets` takes no --deadline: Env.Clock does not bound it.)
func targetsWith(ctx context.Context, env Env) (*TargetsResult, error) {
	line := env.progress("Finding targets and checking permissions", 0)
	inv, err := env.Source.Open(ctx)
	line.Stop()
	if err != nil {
		return nil, err
	}
	var failed []view.TargetError
	for _, f := range inv.Unreadable {
		failed = append(failed, view.TargetError{Target: f.ID(), Error: f.Err.Error()})
	}
	return &TargetsResult{List: view.NewTargetList(inv.Targets, inv.Skipped, failed), Warnings: inv.Warnings}, nil
}
