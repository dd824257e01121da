package health

import (
	"fmt"
	"sort"
)

// MaxWorkers is the most workers a queue is believed to run. A worker is a goroutine that
// calls the API server: controller-runtime's MaxConcurrentReconciles and
// kube-controller-manager's --concurrent-*-syncs are 1 to a few hundred in practice, and ten
// thousand concurrent reconciles would be far past what a client's rate limits and the API
// server's flow control let through. A page that says more is broken, not a deployment: its
// worker counts are read as unknown.
const MaxWorkers = 10000

// plausibleWorkers reports whether c's worker counts can be believed.
func plausibleWorkers(c *Controller) bool {
	return !(c.MaxConcurrent > MaxWorkers) && !(c.ActiveWorkers > MaxWorkers)
}

// ImplausibleWorkers says, for each controller of s whose page claims more workers than
// MaxWorkers, that its counts are not believed.
func ImplausibleWorkers(s *Snapshot) []string {
	var out []string
	for name, c := range s.Controllers {
		if !plausibleWorkers(c) {
			out = append(out, fmt.Sprintf("controller %s claims %.3g workers (%.3g busy), more than any process runs (at most %d): the counts are not believed and read as unknown",
				name, c.MaxConcurrent, c.ActiveWorkers, MaxWorkers))
		}
	}
	sort.Strings(out)
	return out
}
