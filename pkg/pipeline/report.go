package pipeline

import (
	"context"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/engine"
)

// Report is a run of `report`, opened.
type Report struct {
	plan Plan
	cfg  engine.ReportConfig
	env  engine.Env
}

// NewReport opens the plan for the report made with cfg (engine.NewReport makes it from
// report's options).
func NewReport(p Plan, cfg engine.ReportConfig) (*Report, error) {
	r, err := p.open()
	if err != nil {
		return nil, err
	}
	rep := newReport(r, cfg)
	rep.plan = p
	return rep, nil
}

// newReport is the report made with cfg of a source opened.
func newReport(r opened, cfg engine.ReportConfig) *Report {
	cfg.Read, cfg.Scope = r.Read, r.Scope
	return &Report{cfg: cfg, env: r.env}
}

// Run reads the targets and the cluster and returns the report (engine.Report); the result
// says whether --fail-on is reached.
func (r *Report) Run(ctx context.Context) (*engine.ReportResult, error) {
	return engine.Report(ctx, r.cfg, r.env)
}
