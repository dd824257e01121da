// Package model is the stage between reading and judging: every sample a source read is turned
// into its health snapshot once, right after the reading, and every consumer of a run (the
// findings, the report, the queue table, the warnings beside them) reads that snapshot instead
// of building its own from the parsed page.
package model

import (
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/source"
)

// Target is one target as read, with the snapshot of each of its samples.
type Target struct {
	// Result is what the source read of the target: its samples, pod, window and error.
	Result source.Result
	// Snapshots are the snapshots of Result.Samples, in the same order.
	Snapshots []*health.Snapshot
}

// Of builds the snapshot of each of r's samples.
func Of(r source.Result) Target {
	t := Target{Result: r, Snapshots: make([]*health.Snapshot, len(r.Samples))}
	for i, s := range r.Samples {
		t.Snapshots[i] = health.FromFamilies(s.Families, s.Time)
	}
	return t
}

// Build builds the snapshots of every result's samples, in the results' order.
func Build(results []source.Result) []Target {
	out := make([]Target, len(results))
	for i, r := range results {
		out[i] = Of(r)
	}
	return out
}

// ID is the target's ID, the name it has in every output.
func (t Target) ID() string { return t.Result.ID() }

// First is the snapshot of the first sample; nil when there is none.
func (t Target) First() *health.Snapshot {
	if len(t.Snapshots) == 0 {
		return nil
	}
	return t.Snapshots[0]
}

// Last is the snapshot of the last sample; nil when there is none.
func (t Target) Last() *health.Snapshot {
	if len(t.Snapshots) == 0 {
		return nil
	}
	return t.Snapshots[len(t.Snapshots)-1]
}

// Results are the targets' source results, in the same order.
func Results(targets []Target) []source.Result {
	out := make([]source.Result, len(targets))
	for i, t := range targets {
		out[i] = t.Result
	}
	return out
}
