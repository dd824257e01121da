package pipeline

import (
	"context"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/engine"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/findings"
)

// Queues is a run of `queues`, opened.
type Queues struct {
	cfg engine.QueuesConfig
	env engine.Env
}

// NewQueues opens the plan for the queue table, its STATUS judged with th.
func NewQueues(p Plan, th findings.Thresholds) (*Queues, error) {
	r, err := p.open()
	if err != nil {
		return nil, err
	}
	return &Queues{cfg: engine.QueuesConfig{Read: r.Read, Thresholds: th, Scope: r.Scope}, env: r.env}, nil
}

// Run reads the targets and returns the queue table (engine.Queues).
func (q *Queues) Run(ctx context.Context) (*engine.QueuesResult, error) {
	return engine.Queues(ctx, q.cfg, q.env)
}
