package engine

import (
	"context"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/discover"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/report"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// TargetsResult is what discovery found, and what to say beside it.
type TargetsResult struct {
	List TargetList
	// Warnings are things the user should know (stderr).
	Warnings []string
}

// Targets opens the source, which finds the targets and checks how each can be reached, and
// reads nothing.
func Targets(ctx context.Context, env Env) (*TargetsResult, error) {
	line := env.progress("Finding targets and checking permissions", 0)
	inv, err := env.Source.Open(ctx)
	line.Stop()
	if err != nil {
		return nil, err
	}
	var failed []report.TargetError
	for _, f := range inv.Unreadable {
		failed = append(failed, report.TargetError{Target: f.ID(), Error: f.Err.Error()})
	}
	return &TargetsResult{List: NewTargetList(inv.Targets, inv.Skipped, failed), Warnings: inv.Warnings}, nil
}

// TargetList is the versioned schema of `targets -o json|yaml`.
type TargetList struct {
	APIVersion string               `json:"apiVersion"`
	Kind       string               `json:"kind"`
	Items      []target.Target      `json:"items"`
	Skipped    []discover.Skipped   `json:"skipped,omitempty"`
	Failed     []report.TargetError `json:"failed,omitempty"`
}

// NewTargetList builds the list.
func NewTargetList(items []target.Target, skipped []discover.Skipped, failed []report.TargetError) TargetList {
	if items == nil {
		items = []target.Target{}
	}
	return TargetList{APIVersion: report.APIVersion, Kind: "TargetList", Items: items, Skipped: skipped, Failed: failed}
}
