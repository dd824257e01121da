package run

import "context"

// Report is a run of `report`, opened.
type Report struct {
	plan Plan
	cfg  ReportConfig
	env  Env
}

// NewReport opens the plan for the report made with cfg (NewReportConfig makes it
// from report's options).
func NewReport(p Plan, cfg ReportConfig) (*Report, error) {
	r, err := p.open()
	if err != nil {
		return nil, err
	}
	rep := newReport(r, cfg)
	rep.plan = p
	return rep, nil
}

// newReport is the report made with cfg of a source opened.
func newReport(r opened, cfg ReportConfig) *Report {
	cfg.Read, cfg.Scope = r.Read, r.Scope
	return &Report{cfg: cfg, env: r.env}
}

// Run reads the targets and the cluster and returns the report (ReportWith); the result
// says whether --fail-on is reached.
func (r *Report) Run(ctx context.Context) (*ReportResult, error) {
	return ReportWith(ctx, r.cfg, r.env)
}
