package engine

import (
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/source"
)

// implausibleWorkers says, per target, which controllers claim more workers than any process
// runs: their counts show as "-" and nothing is judged on them.
func implausibleWorkers(results []source.Result) []string {
	var out []string
	for _, r := range results {
		if len(r.Samples) == 0 {
			continue
		}
		last := r.Samples[len(r.Samples)-1]
		for _, w := range health.ImplausibleWorkers(health.FromFamilies(last.Families, last.Time)) {
			out = append(out, r.ID()+": "+w)
		}
	}
	return out
}
