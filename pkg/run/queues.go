package run

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// QueuesConfig is what `queues` needs besides its source.
type QueuesConfig struct {
	// Read says how to read the targets (the families to keep are the stages' choice).
	Read source.Options
	// Thresholds judge the status of every queue, as they judge the findings of report.
	Thresholds findings.Thresholds
	Scope      source.Scope
}

// QueuesResult is the queue table and what to say beside it.
type QueuesResult struct {
	List view.QueueList
	// Warnings are things the user should know (stderr).
	Warnings []string
}

// QueuesWith reads env's targets once or twice and returns one row per workqueue, worst
// first, the standby replicas folded into their leader's rows. It fails when nothing was
// found or no target could be read; targets that failed among others are in the list's Errors.
func QueuesWith(ctx context.Context, cfg QueuesConfig, env Env) (*QueuesResult, error) {
	m, err := env.model(ctx, readPlan{read: cfg.Read, keep: health.WantedQueues,
		nothing: func(inv *source.Inventory) string { return nothingFound(cfg.Scope, inv) }})
	if err != nil {
		return nil, err
	}
	defer m.cancel()
	ctx, inv, read := m.ctx, m.inv, m.targets
	j := judgeQueues(read, cfg.Thresholds, func(ns []string) []model.Holder {
		if inv.Cluster == nil {
			return nil
		}
		return inv.Cluster.LeaseHolders(ctx, ns)
	})
	warnings := append(append([]string(nil), inv.Warnings...), notes(read)...)
	warnings = append(warnings, mistypedWarnings(read)...)
	warnings = append(warnings, implausibleWorkers(read)...)
	for _, t := range j.targets {
		warnings = append(warnings, t.Notes...)
	}
	list, errs := j.list, j.list.Errors
	list.Resolution, list.ResolutionNote = inv.Resolution, inv.ResolutionNote

	sampled := 0
	for _, r := range read {
		if r.Read() {
			sampled++
		}
	}
	if sampled == 0 {
		if err := nothingRead(ctx, read); err != nil {
			return nil, err
		}
		msgs := make([]string, 0, len(errs))
		for _, e := range errs {
			msgs = append(msgs, "  "+printable.String(e.Target+": "+e.Error)) // one line each, whatever a server said
		}
		return nil, errors.New("no target could be read:\n" + strings.Join(msgs, "\n"))
	}
	return &QueuesResult{List: list, Warnings: warnings}, nil
}

// analyse turns the targets read into queue figures, sorted worst first, the errors of the
// targets that failed (also those read once before an error), the last snapshot of each
// target read (what its leadership is read from), and the targets the findings rules judge.
func analyse(read []model.Target, th findings.Thresholds) ([]health.QueueStats, []view.TargetError, map[string]*health.Snapshot, []findings.Target) {
	var stats []health.QueueStats
	var targets []findings.Target
	var errs []view.TargetError
	curs := map[string]*health.Snapshot{}
	for _, m := range read {
		id := m.ID()
		if m.Err != nil {
			errs = append(errs, view.TargetError{Target: id, Error: m.Err.Error()})
		}
		t, ok := findings.Read(m, th, nil)
		if !ok {
			continue
		}
		stats = append(stats, t.Queues...)
		targets = append(targets, t)
		curs[id] = t.Cur
	}
	health.Sort(stats)
	return stats, errs, curs, targets
}

// replicasOf are the pods read, with their workload and leadership (from curs, their last
// snapshots by target).
func replicasOf(read []model.Target, curs map[string]*health.Snapshot) []model.Replica {
	var reps []model.Replica
	for _, r := range read {
		t := r.Target
		if t.Kind != target.KindPod || !r.Read() {
			continue
		}
		reps = append(reps, model.ReplicaOf(t.ID(), t.Cluster, t.Namespace, t.Name, t.Workload, curs[t.ID()]))
	}
	return reps
}

// mistypedWarnings says, per target, which families the queue figures read were declared with
// a TYPE that kept their values out, so that a "-" in the table has a reason on stderr.
func mistypedWarnings(read []model.Target) []string {
	var out []string
	for _, t := range read {
		cur := t.Last()
		if cur == nil {
			continue
		}
		for _, m := range cur.Mistyped {
			out = append(out, fmt.Sprintf("%s: %s is declared TYPE %s but is read as %s, so the figures drawn from it show as \"-\" (finding CD103 of `kubectl ctrldiag report`)",
				t.ID(), m.Family, m.Declared, m.Read))
		}
	}
	return out
}

// notes are what the source learnt while reading the targets (a fallback to port-forward).
func notes(read []model.Target) []string {
	var out []string
	for _, r := range read {
		out = append(out, r.Notes...)
	}
	return out
}

// nothingFound explains an empty discovery.
func nothingFound(s source.Scope, inv *source.Inventory) string {
	where := "in namespace " + s.Namespace
	if s.Namespace == "" {
		where = "in any namespace"
	}
	msg := "no controller metrics endpoint found " + where
	if s.Selector != "" {
		msg += " with selector " + s.Selector
	}
	if len(inv.Skipped) > 0 {
		msg += fmt.Sprintf(" (%s skipped: not ready)", printable.Plural(len(inv.Skipped), "pod"))
	}
	return msg + ": name a target (pod/NAME, deploy/NAME, svc/NAME) with --port, add --include-apiserver, or look in another namespace (-n, -A); `kubectl ctrldiag targets` shows what discovery sees"
}
