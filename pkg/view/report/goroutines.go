package report

import (
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// goroutineRows are the dumps read, in the targets' order.
func goroutineRows(targets []model.Target) []view.Goroutines {
	var out []view.Goroutines
	for _, t := range targets {
		p := t.Goroutines
		if p == nil {
			continue
		}
		row := view.Goroutines{Target: t.ID(), Endpoint: p.Endpoint, Reason: p.Reason, Goroutines: p.Goroutines, Workers: p.Workers, Note: p.Note}
		for _, g := range p.Groups {
			gr := view.GoroutineGroup{Summary: g.Describe(), Count: g.Count, State: g.State, LongestSeconds: g.Longest.Seconds(),
				Wait: g.Wait, Cause: g.CauseOf(), Advice: g.CauseOf().Advice(), Frames: g.Frames,
				Controller: g.Controller, LongWaits: g.LongWaits}
			if g.Own.Func != "" {
				own := g.Own
				gr.Own = &own
			}
			row.Groups = append(row.Groups, gr)
		}
		out = append(out, row)
	}
	return out
}
