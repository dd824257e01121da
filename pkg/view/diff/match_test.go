package diff

import (
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// pageReport is a report of saved pages: each target (named as the file was) runs queues,
// each with the given depth, and has the finding codes of its first queue.
func pageReport(targets map[string][]string, depth float64, codes ...string) view.Report {
	r := view.Report{Kind: view.ReportKind}
	for t, qs := range targets {
		for _, q := range qs {
			r.Backlog = append(r.Backlog, view.Backlog{Target: t, Queue: q, Depth: num(depth)})
			r.Events = append(r.Events, view.Events{Target: t, Queue: q, AddsPerSecond: num(1)})
		}
		for _, c := range codes {
			r.Findings = append(r.Findings, findings.Finding{Code: c, Severity: findings.Warning, Target: t, Queue: qs[0]})
		}
	}
	return r
}

var kcmQueues = []string{"deployment", "replicaset", "endpoints", "namespace"}

// Two snapshots of saved pages of one controller, the files named differently, compare that
// controller: its figures changed, its findings neither appeared nor resolved.
func TestCompareMatchesSavedPagesOfOneController(t *testing.T) {
	before := pageReport(map[string][]string{"kcm-1.prom": kcmQueues}, 0, "CD211")
	after := pageReport(map[string][]string{"kcm-2.prom": kcmQueues}, 5, "CD211")
	d := Compare(before, after, "a", "b")
	if len(d.Queues) != len(kcmQueues) {
		t.Fatalf("queues %+v, want the %d queues changed", d.Queues, len(kcmQueues))
	}
	for _, q := range d.Queues {
		if q.Controller != "kcm-2.prom" || q.Change != "changed" {
			t.Errorf("queue %+v: want changed, named by the after side's target", q)
		}
	}
	if len(d.Appeared)+len(d.Resolved) != 0 {
		t.Errorf("appeared %v resolved %v: the same finding of the same controller", d.Appeared, d.Resolved)
	}

	// A queue more after an upgrade is still the same controller.
	grown := pageReport(map[string][]string{"kcm-3.prom": append(append([]string{}, kcmQueues...), "cronjob")}, 0, "CD211")
	d = Compare(before, grown, "a", "b")
	if len(d.Queues) != 1 || d.Queues[0].Queue != "cronjob" || d.Queues[0].Change != "appeared" || len(d.Resolved) != 0 {
		t.Errorf("a controller with a queue more: %+v, resolved %v; want only that queue appeared", d.Queues, d.Resolved)
	}
}

// Different controllers are not matched, whatever their files are called; two on each side
// are paired by what they run.
func TestCompareTellsSavedPagesOfOtherControllersApart(t *testing.T) {
	before := pageReport(map[string][]string{"metrics.prom": kcmQueues}, 0, "CD211")
	after := pageReport(map[string][]string{"metrics.prom": {"widget", "gadget"}}, 0, "CD211")
	d := Compare(before, after, "a", "b")
	gone, appeared := 0, 0
	for _, q := range d.Queues {
		switch q.Change {
		case "gone":
			gone++
		case "appeared":
			appeared++
		}
	}
	if gone != len(kcmQueues) || appeared != 2 || len(d.Appeared) != 1 || len(d.Resolved) != 1 {
		t.Errorf("two controllers in files of one name: %d gone, %d appeared, findings +%d -%d; want %d, 2, +1 -1\n%+v",
			gone, appeared, len(d.Appeared), len(d.Resolved), len(kcmQueues), d.Queues)
	}

	before = pageReport(map[string][]string{"a.prom": kcmQueues, "b.prom": {"widget", "gadget"}}, 0)
	after = pageReport(map[string][]string{"b.prom": kcmQueues, "a.prom": {"widget", "gadget"}}, 1)
	d = Compare(before, after, "a", "b")
	for _, q := range d.Queues {
		if q.Change != "changed" {
			t.Errorf("swapped file names: %+v, want every queue matched to its controller", q)
		}
	}
	if len(d.Queues) != len(kcmQueues)+2 {
		t.Errorf("swapped file names: %d queues changed, want %d", len(d.Queues), len(kcmQueues)+2)
	}
}
