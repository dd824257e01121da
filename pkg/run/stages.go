package run

import (
	"context"
	"errors"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// readPlan is what a run reads, for the first stages every command shares.
type readPlan struct {
	// read bounds the reading; keep are the families parsed.
	read source.Options
	keep func(family string) bool
	// reduce are the families of keep read only in part (source.Options.Reduce).
	reduce map[string]parse.Reduce
	// nothing is the error when the source found no target at all.
	nothing func(*source.Inventory) string
	// opened, when set, runs once the targets are found, before they are read (report's
	// generations before the window).
	opened func(ctx context.Context, inv *source.Inventory)
	// first, when set, is given each target's first sample (source.Options.First); ctx is
	// the run's.
	first func(ctx context.Context, inv *source.Inventory) func(source.Result)
}

// modelled is a readPlan through the first stages, open -> read -> model: the source
// opened, its targets read with a progress line, and every sample made the model once. ctx
// is the run's, bounded by its deadline: what the run reads after the targets (the cluster)
// uses it too. Call cancel when done.
type modelled struct {
	inv     *source.Inventory
	targets []model.Target
	ctx     context.Context
	cancel  context.CancelFunc
}

// model opens the source, reads its targets as p says and makes them the model, all within
// the run's deadline (Env.Clock).
func (e Env) model(ctx context.Context, p readPlan) (m *modelled, err error) {
	ctx, cancel := e.Clock.Bound(ctx)
	defer func() {
		if err != nil {
			cancel()
		}
	}()
	o := p.read
	o.Keep, o.Reduce = p.keep, p.reduce
	if pf, ok := e.Source.(source.Prefetcher); ok {
		pf.Prefetch(ctx, o)
	}
	inv, err := e.Source.Open(ctx)
	if err != nil {
		return nil, err
	}
	if len(inv.Targets) == 0 && len(inv.Unreadable) == 0 {
		return nil, errors.New(p.nothing(inv))
	}
	if p.opened != nil {
		p.opened(ctx, inv)
	}
	if p.first != nil {
		o.First = p.first(ctx, inv)
	}
	results, err := e.readAll(ctx, inv, o)
	if err != nil {
		return nil, err
	}
	// Every sample becomes the model once; every stage after reads it.
	targets := source.Model(results)
	return &modelled{inv: inv, targets: targets, ctx: ctx, cancel: cancel}, nil
}
