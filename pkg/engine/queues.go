package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/plural"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/replicas"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/report"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// QueuesConfig is what `queues` needs besides its source.
type QueuesConfig struct {
	// Read says how to read the targets (the families to keep are the engine's choice).
	Read source.Options
	// Thresholds judge the status of every queue, as they judge the findings of report.
	Thresholds findings.Thresholds
	Scope      Scope
}

// QueuesResult is the queue table and what to say beside it.
type QueuesResult struct {
	List QueueList
	// Warnings are things the user should know (stderr).
	Warnings []string
}

// Queues reads the targets once or twice and returns one row per workqueue, worst first, the
// standby replicas folded into their leader's rows. It fails when nothing was found or no
// target could be read; targets that failed among others are in the list's Errors.
func Queues(ctx context.Context, cfg QueuesConfig, env Env) (*QueuesResult, error) {
	start := time.Now()
	inv, err := env.Source.Open(ctx)
	if err != nil {
		return nil, err
	}
	if len(inv.Targets) == 0 && len(inv.Unreadable) == 0 {
		return nil, errors.New(nothingFound(cfg.Scope, inv))
	}
	o := cfg.Read
	o.Keep = health.WantedQueues
	results, err := env.readAll(ctx, inv, o)
	if err != nil {
		return nil, err
	}
	ctx, cancel := afterReading(ctx, start, cfg.Read.Deadline)
	defer cancel()

	// Every sample becomes the model once; everything below reads it.
	read := source.Model(results)
	stats, errs, curs, targets := analyse(read, cfg.Thresholds)
	stats, groups := foldStandbys(ctx, inv, read, stats, curs)
	warnings := append(append([]string(nil), inv.Warnings...), notes(read)...)
	warnings = append(warnings, mistypedWarnings(read)...)
	warnings = append(warnings, implausibleWorkers(read)...)
	for _, t := range targets {
		warnings = append(warnings, t.Notes...)
	}
	list := NewQueueList(stats, errs)
	list.Replicas = groups
	list.setClusters(read)

	sampled := 0
	for _, r := range read {
		if r.Read() {
			sampled++
		}
	}
	if sampled == 0 {
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
func analyse(read []model.Target, th findings.Thresholds) ([]health.QueueStats, []report.TargetError, map[string]*health.Snapshot, []findings.Target) {
	var stats []health.QueueStats
	var targets []findings.Target
	var errs []report.TargetError
	curs := map[string]*health.Snapshot{}
	for _, m := range read {
		id := m.ID()
		if m.Err != nil {
			errs = append(errs, report.TargetError{Target: id, Error: m.Err.Error()})
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

// foldStandbys groups the pods read into workloads, finds each one's leader (from the metrics,
// else from the Leases of the namespace when the source can list them) and folds the standby
// replicas' empty rows into the leader's.
func foldStandbys(ctx context.Context, inv *source.Inventory, read []model.Target, stats []health.QueueStats,
	curs map[string]*health.Snapshot) ([]health.QueueStats, []replicas.Group) {
	reps := replicasOf(read, curs)
	var holders []replicas.Holder
	if ns := replicas.Unsure(reps); len(ns) > 0 && inv.Cluster != nil {
		holders = inv.Cluster.LeaseHolders(ctx, ns)
	}
	return replicas.Fold(stats, reps, holders)
}

// replicasOf are the pods read, with their workload and leadership (from curs, their last
// snapshots by target).
func replicasOf(read []model.Target, curs map[string]*health.Snapshot) []replicas.Replica {
	var reps []replicas.Replica
	for _, r := range read {
		t := r.Target
		if t.Kind != target.KindPod || !r.Read() {
			continue
		}
		reps = append(reps, replicas.Of(t.ID(), t.Namespace, t.Name, t.Workload, curs[t.ID()]))
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
func nothingFound(s Scope, inv *source.Inventory) string {
	where := "in namespace " + s.Namespace
	if s.Namespace == "" {
		where = "in any namespace"
	}
	msg := "no controller metrics endpoint found " + where
	if s.Selector != "" {
		msg += " with selector " + s.Selector
	}
	if len(inv.Skipped) > 0 {
		msg += fmt.Sprintf(" (%s skipped: not ready)", plural.Count(len(inv.Skipped), "pod"))
	}
	return msg + ": name a target (pod/NAME, deploy/NAME, svc/NAME) with --port, add --include-apiserver, or look in another namespace (-n, -A); `kubectl ctrldiag targets` shows what discovery sees"
}
