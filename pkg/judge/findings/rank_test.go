package findings

import (
	"slices"
	"testing"
)

// The catalog ranks every cause before the symptoms it explains: a webhook, API Priority and
// Fairness, throttling, API errors, failing objects and restarts come before saturated,
// slow, backlogged queues and broken objectives of the same severity.
func TestCausesRankBeforeTheirSymptoms(t *testing.T) {
	symptoms := []string{"workers-saturated", "under-provisioned", "slow-reconcile", "backlog-growing", "backlog-high",
		"queue-wait-slo", "spec-latency-slo", "priority-starvation"}
	explainers := []string{"restarts", "memory-pressure"}
	for _, d := range Catalog() {
		if !IsCause(d.Check) && !slices.Contains(explainers, d.Check) {
			continue
		}
		for _, s := range symptoms {
			sd, ok := Lookup(s)
			if !ok {
				t.Fatalf("no check %s", s)
			}
			if d.Severity == sd.Severity && d.Rank >= sd.Rank {
				t.Errorf("%s (rank %d) explains %s (rank %d) but does not rank before it", d.Check, d.Rank, s, sd.Rank)
			}
		}
	}
	for check := range causes {
		if _, ok := Lookup(check); !ok {
			t.Errorf("cause %q is no check", check)
		}
	}
	// Among equals the harm measured decides, then the names.
	a, b := Finding{Check: "workers-saturated", Severity: Warning, Target: "a"}, Finding{Check: "workers-saturated", Severity: Warning, Target: "b"}
	fs := []Finding{a, b}
	SortBy(fs, func(x, y Finding) int {
		if x.Target == "b" {
			return -1
		}
		if y.Target == "b" {
			return 1
		}
		return 0
	})
	if fs[0].Target != "b" {
		t.Errorf("harm ignored: %v", fs)
	}
}
