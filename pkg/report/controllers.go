package report

import (
	"sort"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/source"
)

// Controllers are the controllers the targets read run, for objects.Resolve: each
// controller-runtime controller, and each queue of other targets, with the kind of
// controller that decides how its name maps to a kind.
func Controllers(targets []source.Result) []objects.Controller {
	var out []objects.Controller
	for _, t := range targets {
		n := len(t.Samples)
		if n == 0 {
			continue
		}
		last := t.Samples[n-1]
		cur := health.FromFamilies(last.Families, last.Time)
		var labels map[string]string
		if t.Pod != nil {
			labels = t.Pod.Labels
		}
		runtime := string(findings.KindOf(cur, labels))
		names := map[string]bool{}
		for name := range cur.Controllers {
			names[name] = true
		}
		if len(cur.Controllers) == 0 {
			for name := range cur.Queues {
				names[name] = true
			}
		}
		sorted := make([]string, 0, len(names))
		for name := range names {
			sorted = append(sorted, name)
		}
		sort.Strings(sorted)
		for _, name := range sorted {
			out = append(out, objects.Controller{Target: t.ID(), Name: name, Runtime: runtime})
		}
	}
	return out
}
