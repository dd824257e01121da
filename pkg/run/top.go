package run

import (
	"context"
	"errors"
	"io"
	"strings"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// TopHistory gives the recent history of targets' queues up to end, and what to warn about.
type TopHistory func(ctx context.Context, targets []target.Target, end time.Time) ([]health.QueueHistory, []string, error)

// Frames are top's frames: the targets read again and again over one opened source, so that
// connections (the API server's, port-forwards, HTTP keep-alives) live across refreshes; with
// SetRediscover, the targets are found again now and then, so that a rollout's pods come and
// go. Each Next is one sample per target; the rates of a frame are between that sample and
// the target's one before. It is not safe for concurrent use.
type Frames struct {
	cfg QueuesConfig
	env Env
	inv *source.Inventory
	// prev is the snapshot of each target's sample of the refresh before (built once, when it
	// was read), by target ID.
	prev map[string]*health.Snapshot
	// history, when set, is asked once, for the first frame.
	history TopHistory
	// every is the time between rediscoveries (0: never); found is when the targets were
	// last found; failing are the targets that failed in the frame before, and newFailure
	// says one started failing there; warned are the source's warnings already given.
	every      time.Duration
	found      time.Time
	failing    map[string]bool
	newFailure bool
	warned     map[string]bool
	// holders are the Lease holders of holdersOf, asked when the targets were found at
	// holdersAt.
	holders   []model.Holder
	holdersOf string
	holdersAt time.Time
}

// newFrames returns the Frames of env's source; it is opened by the first Next.
func newFrames(cfg QueuesConfig, env Env) *Frames {
	return &Frames{cfg: cfg, env: env, prev: map[string]*health.Snapshot{}}
}

// SetHistory makes the first frame carry the targets' recent history from h. When h fails,
// the frame carries a warning instead: the view starts all the same.
func (t *Frames) SetHistory(h TopHistory) { t.history = h }

// SetRediscover makes Next find the targets again when every has passed since they were last
// found, and at the refresh after a target starts failing (its pod may be gone), when the
// source can (source.Rediscoverer: targets found by discovery). 0 never finds them again.
func (t *Frames) SetRediscover(every time.Duration) { t.every = every }

// Next reads every target once and returns the frame. It fails only when the source cannot
// be opened or has no targets; a target that fails (or went away) is an error of the frame.
//
// A frame is a run of its own: --deadline (Env.Clock's limit) bounds each frame from its start.
func (t *Frames) Next(ctx context.Context) (*view.Frame, error) {
	ctx, cancel := source.Clock{Start: time.Now(), Limit: t.env.Clock.Limit}.Bound(ctx)
	defer cancel()
	f := &view.Frame{Time: t.env.now()}
	if t.inv != nil && t.rediscoverDue(f.Time) {
		t.rediscover(ctx, f)
	}
	if t.inv == nil {
		inv, err := t.env.Source.Open(ctx)
		if err != nil {
			return nil, err
		}
		if len(inv.Targets) == 0 && len(inv.Unreadable) == 0 {
			return nil, errors.New(nothingFound(t.cfg.Scope, inv))
		}
		t.inv, t.found = inv, f.Time
		f.Warnings = append(f.Warnings, t.unwarned(inv.Warnings)...)
		if t.history != nil {
			h, warnings, err := t.history(ctx, inv.Targets, f.Time)
			if err != nil {
				warnings = append(warnings, "no history, the sparklines start empty: "+err.Error())
			}
			f.History, f.Warnings = h, append(f.Warnings, warnings...)
		}
	}
	o := t.cfg.Read
	o.Keep, o.Interval, o.Done = health.WantedQueues, 0, nil
	results := t.env.Source.Read(ctx, o)
	read := make([]model.Target, len(results))
	for i := range results {
		read[i] = t.pair(results[i])
	}
	t.noteFailures(read)
	j := judgeQueues(read, t.cfg.Thresholds, func(ns []string) []model.Holder { return t.leaseHolders(ctx, ns) })
	f.List = j.list
	setQueueWait(&f.List, j.targets, t.cfg.Thresholds)
	// Who leads, as report judges it: a standby is not a stalled controller.
	f.Findings = findings.Evaluate(j.targets, model.Elections(j.reps, j.holders), nil, t.cfg.Thresholds)
	f.Warnings = append(f.Warnings, notes(read)...)
	return f, nil
}

// pair puts the target's sample before this one in front of r's, so that rates and window
// quantiles are over the time between the two refreshes, and remembers r's for the next one;
// each sample becomes the model once, when it is read. A target that failed forgets its
// sample: when it comes back its first frame is lifetime.
func (t *Frames) pair(r source.Result) model.Target {
	id := r.ID()
	if r.Err != nil || len(r.Samples) == 0 {
		delete(t.prev, id)
		return r.Model()
	}
	last := r.Samples[len(r.Samples)-1]
	cur := health.FromFamilies(last.Families, last.Time)
	before, ok := t.prev[id]
	t.prev[id] = cur
	if !ok || !cur.Time.After(before.Time) {
		r.Window = 0
		return r.With(cur)
	}
	r.Window = cur.Time.Sub(before.Time)
	return r.With(before, cur)
}

// leaseHolders are the holders of the Leases of the namespaces ns, for the replicas whose
// metrics do not say who leads: asked once per discovery of the targets (a failover makes the
// old leader's row fail, and so a rediscovery), not at every refresh.
func (t *Frames) leaseHolders(ctx context.Context, ns []string) []model.Holder {
	if len(ns) == 0 || t.inv == nil || t.inv.Cluster == nil {
		return nil
	}
	of := strings.Join(ns, ",")
	if of != t.holdersOf || !t.holdersAt.Equal(t.found) {
		t.holders, t.holdersOf, t.holdersAt = t.inv.Cluster.LeaseHolders(ctx, ns), of, t.found
	}
	return t.holders
}

// Close closes what the source keeps open across refreshes (port-forwards), when it keeps
// anything.
func (t *Frames) Close() error {
	if c, ok := t.env.Source.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
