package run

import (
	"context"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/findings"
)

// Queues is a run of `queues`, opened.
type Queues struct {
	cfg QueuesConfig
	env Env
}

// NewQueues opens the plan for the queue table, its STATUS judged with th.
func NewQueues(p Plan, th findings.Thresholds) (*Queues, error) {
	r, err := p.open()
	if err != nil {
		return nil, err
	}
	return &Queues{cfg: QueuesConfig{Read: r.Read, Thresholds: th, Scope: r.Scope}, env: r.env}, nil
}

// Run reads the targets and returns the queue table (QueuesWith).
func (q *Queues) Run(ctx context.Context) (*QueuesResult, error) {
	return QueuesWith(ctx, q.cfg, q.env)
}
