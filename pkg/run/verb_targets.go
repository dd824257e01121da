package run

import "context"

// Targets is a run of `targets`, opened: what discovery finds, nothing read.
type Targets struct {
	env Env
}

// NewTargets opens the plan for the target list.
func NewTargets(p Plan) (*Targets, error) {
	r, err := p.open()
	if err != nil {
		return nil, err
	}
	return &Targets{env: r.env}, nil
}

// Run finds the targets and returns their list (targetsWith).
func (t *Targets) Run(ctx context.Context) (*TargetsResult, error) {
	return targetsWith(ctx, t.env)
}
