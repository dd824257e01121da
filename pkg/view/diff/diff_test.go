package diff

import (
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

func num(v float64) *float64 { return &v }

// reportOf is a report of one pod of deployment/widget running queue "widget".
func reportOf(pod string, depth, adds float64, codes ...string) view.Report {
	target := "ops/" + pod + ":8080"
	r := view.Report{Kind: view.ReportKind,
		Pods:    []view.Pod{{Namespace: "ops", Name: pod, Workload: "deployment/widget"}},
		Backlog: []view.Backlog{{Target: target, Queue: "widget", Depth: num(depth)}},
		Events:  []view.Events{{Target: target, Queue: "widget", AddsPerSecond: num(adds), QueueP99Seconds: num(0.5)}}}
	for _, c := range codes {
		r.Findings = append(r.Findings, findings.Finding{Code: c, Severity: findings.Warning, Target: target, Queue: "widget"})
	}
	return r
}

// A rollout renames the pod: the controller is still the same one, its changed figures are
// shown, and only the findings that really came or went are listed.
func TestCompareMatchesControllersAcrossARollout(t *testing.T) {
	before := reportOf("widget-aaaa", 0, 2, "CD101")
	after := reportOf("widget-bbbb", 40, 2, "CD101", "CD102")
	d := Compare(before, after, "before", "after")
	if len(d.Queues) != 1 {
		t.Fatalf("queues %+v, want the one queue, changed", d.Queues)
	}
	q := d.Queues[0]
	if q.Controller != "ops/deployment/widget:8080" || q.Change != "changed" || len(q.Figures) != 1 || q.Figures[0].Name != "depth" ||
		*q.Figures[0].Before != 0 || *q.Figures[0].After != 40 {
		t.Errorf("queue change %+v, want depth 0 -> 40 only", q)
	}
	if len(d.Appeared) != 1 || d.Appeared[0].Code != "CD102" || len(d.Resolved) != 0 {
		t.Errorf("appeared %v resolved %v, want CD102 appeared", d.Appeared, d.Resolved)
	}
	if d.Worst() != findings.Warning {
		t.Errorf("worst %q", d.Worst())
	}
	back := Compare(after, before, "after", "before")
	if len(back.Resolved) != 1 || back.Resolved[0].Code != "CD102" || len(back.Appeared) != 0 || back.Worst() != "" {
		t.Errorf("reversed: appeared %v resolved %v", back.Appeared, back.Resolved)
	}
}

// Two equal reports differ in nothing; a queue only one side has is appeared or gone.
func TestCompareSameAndMissing(t *testing.T) {
	r := reportOf("widget-aaaa", 3, 2, "CD101")
	if d := Compare(r, r, "a", "a"); len(d.Queues)+len(d.Appeared)+len(d.Resolved)+len(d.Objects) != 0 {
		t.Errorf("a report differs from itself: %+v", d)
	}
	empty := view.Report{Kind: view.ReportKind}
	d := Compare(empty, r, "a", "b")
	if len(d.Queues) != 1 || d.Queues[0].Change != "appeared" || len(d.Queues[0].Figures) != 3 {
		t.Errorf("appeared queue %+v, want its three known figures", d.Queues)
	}
	if d := Compare(r, empty, "a", "b"); len(d.Queues) != 1 || d.Queues[0].Change != "gone" {
		t.Errorf("gone queue %+v", d.Queues)
	}
}

// The findings that appeared are listed as the report lists them, ranked by impact, even when
// the report read back (an older version's -o json) lists them otherwise: the critical one
// first, then the cause before the symptom.
func TestCompareRanksTheFindingsByImpact(t *testing.T) {
	before := reportOf("widget-aaaa", 0, 2)
	after := reportOf("widget-aaaa", 40, 2)
	for _, c := range []struct {
		check string
		sev   findings.Severity
	}{{"backlog-growing", findings.Warning}, {"webhook-slows-writes", findings.Warning}, {"stuck-worker", findings.Critical}} {
		after.Findings = append(after.Findings, findings.Finding{Code: c.check, Check: c.check, Severity: c.sev, Target: "ops/widget-aaaa:8080", Queue: "widget"})
	}
	d := Compare(before, after, "before", "after")
	var got []string
	for _, f := range d.Appeared {
		got = append(got, f.Check)
	}
	if len(got) != 3 || got[0] != "stuck-worker" || got[1] != "webhook-slows-writes" || got[2] != "backlog-growing" {
		t.Errorf("appeared %v", got)
	}
}
