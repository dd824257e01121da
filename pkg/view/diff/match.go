package diff

import (
	"sort"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// minShared is the share of their queue and controller names (of all the names either has)
// two targets without a workload must have in common to be taken for the same controller:
// a controller that gained or lost a queue between the two is still itself; two different
// controllers rarely share half their names.
const minShared = 0.5

// identities names every target of before and after by the controller it is, one name for
// the same controller on both sides. A pod's target is its workload's ("ns/deployment/name:
// port"), so a rollout, which renames the pods, changes nothing. A target without one (a
// saved page, a URL, the API server) is matched to one of the other side by the queues and
// controllers it runs: two snapshots taken from saved pages of one controller are compared
// whatever the pages were called. Such a pair is named by the after side's name; what is
// left is matched by name, or stands alone.
func identities(before, after view.Report) (map[string]string, map[string]string) {
	ib, ia := map[string]string{}, map[string]string{}
	var loneB, loneA []string
	wb, wa := podWorkloads(before), podWorkloads(after)
	for _, t := range targetsOf(before) {
		if id := controller(wb, t); id != t {
			ib[t] = id
		} else {
			loneB = append(loneB, t)
		}
	}
	for _, t := range targetsOf(after) {
		if id := controller(wa, t); id != t {
			ia[t] = id
		} else {
			loneA = append(loneA, t)
		}
	}
	pairs := closePairs(loneB, loneA, queueNames(before), queueNames(after))
	matched := map[string]bool{} // after targets matched to a before target
	for _, p := range pairs {
		if _, done := ib[p.b]; done {
			continue
		}
		if _, done := ia[p.a]; done {
			continue
		}
		ib[p.b], ia[p.a] = p.a, p.a
		matched[p.a] = true
	}
	// Those left keep their names, which match when both sides have one; a before target
	// whose name an after target's match took is told apart.
	taken, lone := map[string]bool{}, map[string]bool{}
	for _, id := range ia {
		taken[id] = true
	}
	for _, a := range loneA {
		lone[a] = true
		if _, done := ia[a]; !done {
			ia[a] = a
			taken[a] = true
		}
	}
	for _, b := range loneB {
		if _, done := ib[b]; done {
			continue
		}
		id := b
		if matched[b] || (taken[b] && !lone[b]) {
			id = b + " (before)"
		}
		ib[b] = id
	}
	return ib, ia
}

// targetsOf are the targets a report names in its rows and findings, sorted.
func targetsOf(r view.Report) []string {
	set := map[string]bool{}
	for _, b := range r.Backlog {
		set[b.Target] = true
	}
	for _, e := range r.Events {
		set[e.Target] = true
	}
	for _, f := range r.Findings {
		if f.Target != "" {
			set[f.Target] = true
		}
	}
	out := make([]string, 0, len(set))
	for t := range set {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// queueNames are each target's queue and controller names.
func queueNames(r view.Report) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	add := func(target, queue string) {
		if out[target] == nil {
			out[target] = map[string]bool{}
		}
		out[target][queue] = true
	}
	for _, b := range r.Backlog {
		add(b.Target, b.Queue)
	}
	for _, e := range r.Events {
		add(e.Target, e.Queue)
	}
	return out
}
