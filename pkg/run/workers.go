package run

import (
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// implausibleWorkers says, per target, which controllers claim more workers than any process
// runs: their counts show as "-" and nothing is judged on them.
func implausibleWorkers(targets []model.Target) []string {
	var out []string
	for _, t := range targets {
		cur := t.Last()
		if cur == nil {
			continue
		}
		for _, w := range health.ImplausibleWorkers(cur) {
			out = append(out, t.ID()+": "+w)
		}
	}
	return out
}
