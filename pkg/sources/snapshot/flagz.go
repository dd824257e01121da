package snapshot

import (
	"context"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

var (
	_ source.FlagzReader = (*Recorder)(nil)
	_ source.FlagzReader = (*Replay)(nil)
)

// Flagz reads the flags through the live source, when it can read them, and keeps them with
// the target's result.
func (r *Recorder) Flagz(ctx context.Context, t model.Target, keep []string, timeout time.Duration) *knobs.Flagz {
	live, ok := r.src.(source.FlagzReader)
	if !ok {
		return nil
	}
	f := live.Flagz(ctx, t, keep, timeout)
	if f != nil {
		cp := copyOf(f)
		r.mu.Lock()
		if r.flagz == nil {
			r.flagz = map[string]*knobs.Flagz{}
		}
		r.flagz[t.ID()] = cp
		r.mu.Unlock()
	}
	return f
}

// Flagz gives the flags the snapshot kept for the target; nil when it kept none (they were
// not read, or the snapshot is older than flags), and when ctx has ended.
func (p *Replay) Flagz(ctx context.Context, t model.Target, _ []string, _ time.Duration) *knobs.Flagz {
	if ctx.Err() != nil {
		return nil
	}
	if f := p.index().flagz[t.ID()]; f != nil {
		return copyOf(f)
	}
	return nil
}
