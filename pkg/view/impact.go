package view

import (
	"cmp"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
)

// harm is what a queue suffers, as the report's sections measure it: the p99 wait of its
// items, its depth, and its retries a second; -1 where unknown.
type harm struct{ wait, depth, retries float64 }

// harms are the report's queues' harms by target and queue, read from sections 2 and 4.
type harms map[[2]string]harm

func harmsOf(backlog []Backlog, events []Events) harms {
	out := harms{}
	for _, q := range FromSections(backlog, events) {
		out[[2]string{q.Target, q.Queue}] = harm{wait: known(q.QueueP99Seconds), depth: known(q.Depth), retries: known(q.RetriesPerSecond)}
	}
	return out
}

func known(v *float64) float64 {
	if v == nil {
		return -1
	}
	return *v
}

// of is the harm a finding measures: its queue's, or for a finding about a whole target the
// worst of the target's queues.
func (h harms) of(f findings.Finding) harm {
	if f.Queue != "" {
		if q, ok := h[[2]string{f.Target, f.Queue}]; ok {
			return q
		}
	}
	worst := harm{-1, -1, -1}
	for k, q := range h {
		if k[0] == f.Target && worse(q, worst) < 0 {
			worst = q
		}
	}
	return worst
}

// worse compares two harms: negative when a is the greater (the longer wait, then the deeper
// backlog, then more retries).
func worse(a, b harm) int {
	if c := cmp.Compare(b.wait, a.wait); c != 0 {
		return c
	}
	if c := cmp.Compare(b.depth, a.depth); c != 0 {
		return c
	}
	return cmp.Compare(b.retries, a.retries)
}

// compare is the harm order findings.SortBy takes.
func (h harms) compare(a, b findings.Finding) int { return worse(h.of(a), h.of(b)) }

// RankFindings orders fs by impact, as the report lists them: severity, then causes before the
// symptoms they explain (the catalog's rank), then the harm measured on each finding's queue in
// r's sections (the p99 wait, the depth, the retries), then target and queue. Every output of
// the report and diff lists findings in this order.
func RankFindings(r Report, fs []findings.Finding) {
	findings.SortBy(fs, harmsOf(r.Backlog, r.Events).compare)
}
