package report

import (
	"sort"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/objects"
)

// Controllers are the controllers the targets read run, for objects.Resolve: each
// controller-runtime controller, and each queue of other targets, with the kind of
// controller that decides how its name maps to a kind.
func Controllers(targets []model.Target) []objects.Controller {
	var out []objects.Controller
	for _, m := range targets {
		cur := m.Last()
		if cur == nil {
			continue
		}
		runtime := string(findings.KindOf(cur, m.PodLabels()))
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
			out = append(out, objects.Controller{Target: m.ID(), Name: name, Runtime: runtime})
		}
	}
	return out
}
