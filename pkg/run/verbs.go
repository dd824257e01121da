package run

import (
	"context"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
)

// Queues opens the plan, reads its targets and returns the queue table, its STATUS judged
// with th (QueuesWith).
func Queues(ctx context.Context, p Plan, th findings.Thresholds) (*QueuesResult, error) {
	r, err := p.open()
	if err != nil {
		return nil, err
	}
	return QueuesWith(ctx, QueuesConfig{Read: r.Read, Thresholds: th, Scope: r.Scope}, r.env)
}

// Targets opens the plan and returns what discovery finds, nothing read (targetsWith).
func Targets(ctx context.Context, p Plan) (*TargetsResult, error) {
	r, err := p.open()
	if err != nil {
		return nil, err
	}
	return targetsWith(ctx, r.env)
}

// Report checks report's options, opens the plan, reads the targets and the cluster and
// returns the report (ReportWith); the result says whether --fail-on is reached. An error
// in the options is one in the command line (exit 2).
func Report(ctx context.Context, p Plan, o ReportOptions) (*ReportResult, error) {
	cfg, err := newReportConfig(o)
	if err != nil {
		return nil, err
	}
	r, err := p.open()
	if err != nil {
		return nil, err
	}
	return ReportWith(ctx, withSource(cfg, r), r.env)
}

// withSource is report's configuration with the reading and the scope of the source opened.
func withSource(cfg ReportConfig, r opened) ReportConfig {
	cfg.Read, cfg.Scope = r.Read, r.Scope
	return cfg
}
