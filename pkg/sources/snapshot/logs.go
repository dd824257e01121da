package snapshot

import (
	"context"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/logs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

var (
	_ source.LogReader = (*Recorder)(nil)
	_ source.LogReader = (*Replay)(nil)
)

// Log reads the log through the live source, when it can read one, and keeps what was
// extracted (never a line of it) with the target's result.
func (r *Recorder) Log(ctx context.Context, t model.Target, req logs.PodLogRequest) *logs.Log {
	live, ok := r.src.(source.LogReader)
	if !ok {
		return nil
	}
	l := live.Log(ctx, t, req)
	if l != nil {
		cp := copyOf(l)
		r.mu.Lock()
		if r.logs == nil {
			r.logs = map[string]*logs.Log{}
		}
		r.logs[t.ID()] = cp
		r.mu.Unlock()
	}
	return l
}

// Log gives what the snapshot kept of the target's log; nil when it kept none (it was not
// read, or the snapshot is older than logs), and when ctx has ended.
func (p *Replay) Log(ctx context.Context, t model.Target, _ logs.PodLogRequest) *logs.Log {
	if ctx.Err() != nil {
		return nil
	}
	if l := p.index().logs[t.ID()]; l != nil {
		return copyOf(l)
	}
	return nil
}
