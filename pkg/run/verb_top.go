package run

import (
	"context"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/promsource"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// TopConfig is what `top` adds to its plan.
type TopConfig struct {
	// Thresholds judge the STATUS column and the details' findings.
	Thresholds findings.Thresholds
	// Refresh is the time between two frames; Rediscover between two discoveries of the
	// targets (0: never).
	Refresh    time.Duration
	Rediscover time.Duration
	// HistoryPoints are the points of history a queue's sparklines hold before the session
	// (with --prometheus).
	HistoryPoints int
}

// historyDeadline bounds the wait for the history: the view starts without it rather than
// late.
const historyDeadline = 10 * time.Second

// Top is a run of `top`, opened: the same targets read again and again.
type Top struct {
	cfg     TopConfig
	qcfg    QueuesConfig
	env     Env
	history *promsource.History
}

// NewTop opens the plan for frames every cfg.Refresh: each pod's port-forward stays open
// across refreshes, and the history (--prometheus) is asked in steps of the refresh, at least
// the usual scrape interval.
func NewTop(p Plan, cfg TopConfig) (*Top, error) {
	p.Spec.KeepForwards = true
	p.Spec.Prometheus.HistoryStep = historyStep(cfg.Refresh)
	p.Spec.Prometheus.HistoryPoints = cfg.HistoryPoints
	// A refresh draws no progress line: the view or the stream is the progress.
	p.Progress = nil
	r, err := p.open()
	if err != nil {
		return nil, err
	}
	return &Top{cfg: cfg, qcfg: QueuesConfig{Read: r.Read, Thresholds: cfg.Thresholds, Scope: r.Scope}, env: r.env,
		history: r.History}, nil
}

// Start returns the frames (Frames); withHistory makes its first frame carry the
// queues' recent history when the plan has a server for it (only the sparklines show it).
// Close it when done.
func (t *Top) Start(withHistory bool) *Frames {
	top := newFrames(t.qcfg, t.env)
	top.SetRediscover(t.cfg.Rediscover)
	if h := t.history; withHistory && h != nil {
		top.SetHistory(func(ctx context.Context, targets []target.Target, end time.Time) ([]health.QueueHistory, []string, error) {
			ctx, cancel := context.WithTimeout(ctx, historyDeadline)
			defer cancel()
			return h.Read(ctx, targets, end)
		})
	}
	return top
}

// historyStep is the time between two points of the history before the session: the
// refresh, and at least the usual scrape interval.
func historyStep(refresh time.Duration) time.Duration {
	return max(refresh, promsource.MinHistoryStep)
}
