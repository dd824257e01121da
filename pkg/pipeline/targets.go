package pipeline

import (
	"context"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/engine"
)

// Targets is a run of `targets`, opened: what discovery finds, nothing read.
type Targets struct {
	env engine.Env
}

// NewTargets opens the plan for the target list.
func NewTargets(p Plan) (*Targets, error) {
	r, err := p.open()
	if err != nil {
		return nil, err
	}
	return &Targets{env: r.env}, nil
}

// Run finds the targets and returns their list (engine.Targets).
func (t *Targets) Run(ctx context.Context) (*engine.TargetsResult, error) {
	return engine.Targets(ctx, t.env)
}
