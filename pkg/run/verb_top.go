package run

import (
	"context"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/promsource"
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
	// (with --prometheus); History makes the first frame carry it when the plan has a server
	// for it (only the full-screen view's sparklines show it).
	HistoryPoints int
	History       bool
}

// historyDeadline bounds the wait for the history: the view starts without it rather than
// late.
const historyDeadline = 10 * time.Second

// Top opens the plan for frames every cfg.Refresh and returns them (Frames): each pod's
// port-forward stays open across refreshes, and the history (--prometheus) is asked in steps
// of the refresh, at least the usual scrape interval. Close the frames when done.
func Top(p Plan, cfg TopConfig) (*Frames, error) {
	p.Spec.KeepForwards = true
	p.Spec.Prometheus.HistoryStep = historyStep(cfg.Refresh)
	p.Spec.Prometheus.HistoryPoints = cfg.HistoryPoints
	// A refresh draws no progress line: the view or the stream is the progress.
	p.Progress = nil
	r, err := p.open()
	if err != nil {
		return nil, err
	}
	top := newFrames(QueuesConfig{Read: r.Read, Thresholds: cfg.Thresholds, Scope: r.Scope}, r.env)
	top.SetRediscover(cfg.Rediscover)
	if h := r.History; cfg.History && h != nil {
		top.SetHistory(func(ctx context.Context, targets []target.Target, end time.Time) ([]health.QueueHistory, []string, error) {
			ctx, cancel := context.WithTimeout(ctx, historyDeadline)
			defer cancel()
			return h.Read(ctx, targets, end)
		})
	}
	return top, nil
}

// historyStep is the time between two points of the history before the session: the
// refresh, and at least the usual scrape interval.
func historyStep(refresh time.Duration) time.Duration {
	return max(refresh, promsource.MinHistoryStep)
}
