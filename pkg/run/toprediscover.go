package run

import (
	"context"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// rediscoverDue says whether the targets are to be found again before this refresh: the
// source can, rediscovery is on, and every has passed or a target started failing in the
// frame before (a pod deleted by a rollout fails before the next periodic discovery).
func (t *Frames) rediscoverDue(now time.Time) bool {
	r, ok := t.env.Source.(source.Rediscoverer)
	if !ok || t.every <= 0 || !r.Rediscovers() {
		return false
	}
	return t.newFailure || now.Sub(t.found) >= t.every
}

// rediscover finds the targets again and makes them the ones read: those gone forget their
// sample before (and leave the table, as they are no longer read); those that appeared have
// none, so their first frame is lifetime, as any first frame. When it fails, the targets
// stay as they were and the frame says why; the next try waits for the next period.
func (t *Frames) rediscover(ctx context.Context, f *view.Frame) {
	r := t.env.Source.(source.Rediscoverer)
	t.found, t.newFailure = f.Time, false
	inv, err := r.Rediscover(ctx)
	if err != nil {
		f.Warnings = append(f.Warnings, "finding the targets again failed, reading those found before: "+err.Error())
		return
	}
	present := map[string]bool{}
	for _, tg := range inv.Targets {
		present[tg.ID()] = true
	}
	for _, u := range inv.Unreadable {
		present[u.ID()] = true
	}
	for id := range t.prev {
		if !present[id] {
			delete(t.prev, id)
		}
	}
	for id := range t.failing {
		if !present[id] {
			delete(t.failing, id)
		}
	}
	t.inv = inv
	f.Warnings = append(f.Warnings, t.unwarned(inv.Warnings)...)
}

// noteFailures remembers the targets that failed in this frame, and whether one of them did
// not fail in the frame before.
func (t *Frames) noteFailures(read []model.Target) {
	now := map[string]bool{}
	for _, r := range read {
		if r.Err != nil && !r.Read() {
			id := r.ID()
			now[id] = true
			if t.failing != nil && !t.failing[id] {
				t.newFailure = true
			}
		}
	}
	t.failing = now
}

// unwarned returns the warnings not given before (a rediscovery finds the same things to
// warn about as the discovery before), and remembers them.
func (t *Frames) unwarned(ws []string) []string {
	if t.warned == nil {
		t.warned = map[string]bool{}
	}
	var out []string
	for _, w := range ws {
		if !t.warned[w] {
			t.warned[w] = true
			out = append(out, w)
		}
	}
	return out
}
