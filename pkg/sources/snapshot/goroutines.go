package snapshot

import (
	"context"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/goroutines"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

var (
	_ source.Profiler = (*Recorder)(nil)
	_ source.Profiler = (*Replay)(nil)
)

// Goroutines reads the dump through the live source, when it can read one, and keeps it with
// the target's result.
func (r *Recorder) Goroutines(ctx context.Context, t model.Target, w goroutines.Want, b goroutines.Bounds) *goroutines.Profile {
	live, ok := r.src.(source.Profiler)
	if !ok {
		return nil
	}
	p := live.Goroutines(ctx, t, w, b)
	if p != nil {
		cp := copyOf(p)
		r.mu.Lock()
		if r.profiles == nil {
			r.profiles = map[string]*goroutines.Profile{}
		}
		r.profiles[t.ID()] = cp
		r.mu.Unlock()
	}
	return p
}

// Goroutines gives the dump the snapshot kept for the target; nil when it kept none (it was
// not asked for, or the snapshot is older than dumps), and when ctx has ended.
func (p *Replay) Goroutines(ctx context.Context, t model.Target, _ goroutines.Want, _ goroutines.Bounds) *goroutines.Profile {
	if ctx.Err() != nil {
		return nil
	}
	if g := p.index().goroutines[t.ID()]; g != nil {
		return copyOf(g)
	}
	return nil
}
