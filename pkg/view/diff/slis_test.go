package diff

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/render"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// withSLI gives r's widget queue its service levels: waits, p99 and share over the
// objective, the queue-wait verdict, and the spec verdict ("" for none read).
func withSLI(r view.Report, waits, p99, share float64, verdict, spec string) view.Report {
	s := view.SLI{Target: r.Backlog[0].Target, Queue: "widget", QueueWait: view.Objective{ObjectiveSeconds: 1, Quantile: 0.99,
		Samples: num(waits), P99Seconds: num(p99), OverShare: num(share), Verdict: verdict}}
	if spec != "" {
		s.Spec = &view.SpecObjective{Objective: view.Objective{Samples: num(120), P99Seconds: num(0.8), Verdict: spec}, Kind: "workloads.demo.ctrldiag.dev"}
	}
	r.SLIs = append(r.SLIs, s)
	return r
}

// withKind gives r the watched kind Workload with its spec latency and time to Ready.
func withKind(r view.Report, p50, p99 float64, pending int) view.Report {
	r.Objects = &objects.View{Kinds: []objects.Summary{{Kind: objects.Kind{Group: "demo.ctrldiag.dev", Kind: "Workload"},
		SpecLatency: &objects.SpecLatency{Changes: 120, P50Seconds: num(p50), P99Seconds: num(p99), Pending: pending},
		TimeToReady: &objects.TimeToReady{Changes: 120, P50Seconds: num(p50), P99Seconds: num(p99), Pending: pending}}}}
	return r
}

// A controller whose queue waits went from holding the objective to breaking it across a
// rollout shows as one row, its verdict change called out; the kind's spec latency shows its
// before and after; the text names "holds -> breaks".
func TestCompareSLIsCallsOutTheVerdictChange(t *testing.T) {
	before := withKind(withSLI(reportOf("widget-aaaa", 0, 2), 150, 0.08, 0, "holds", "holds"), 0.5, 0.8, 0)
	after := withKind(withSLI(reportOf("widget-bbbb", 40, 9), 400, 2.8, 0.35, "breaks", "holds"), 0.6, 4, 12)
	d := Compare(before, after, "before", "after")
	if len(d.SLIs) != 1 {
		t.Fatalf("slis %+v, want the one queue", d.SLIs)
	}
	s := d.SLIs[0]
	if s.Controller != "ops/deployment/widget:8080" || s.Change != "changed" || s.QueueWait.Change != "holds -> breaks" ||
		s.QueueWait.Before != "holds" || s.QueueWait.After != "breaks" || s.Spec.Change != "" || s.Spec.After != "holds" {
		t.Errorf("sli change %+v, want queue wait holds -> breaks, spec holds", s)
	}
	if len(d.KindSLIs) != 1 || d.KindSLIs[0].Kind != "Workload.demo.ctrldiag.dev" {
		t.Fatalf("kind slis %+v, want Workload", d.KindSLIs)
	}
	var out bytes.Buffer
	if err := render.DiffText(&out, d); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"SERVICE LEVELS", "holds -> breaks", "80ms -> 2.8s", "0.0% -> 35.0%", "150 -> 400",
		"SPEC TO OBSERVED BY KIND", "800ms -> 4s", "0 -> 12"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the text lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := render.DiffMarkdown(&out, d); err != nil {
		t.Fatal(err)
	}
	if md := out.String(); !strings.Contains(md, "## Service levels") || !strings.Contains(md, "| holds -> breaks |") || !strings.Contains(md, "## Spec to observed by kind") {
		t.Errorf("the markdown lacks the service levels:\n%s", md)
	}
	back := Compare(after, before, "after", "before")
	if len(back.SLIs) != 1 || back.SLIs[0].QueueWait.Change != "breaks -> holds" {
		t.Errorf("reversed: %+v, want breaks -> holds", back.SLIs)
	}
}

// A quiet controller, not judged on both sides with no waits, is no row: only a change of a
// verdict or of a figure behind one shows. More waits alone do not; a queue that went shows.
func TestCompareSLIsLeavesTheUnchangedOut(t *testing.T) {
	quiet := withSLI(reportOf("widget-aaaa", 0, 0), 0, 0, 0, "not-judged", "")
	quiet.SLIs[0].QueueWait.P99Seconds, quiet.SLIs[0].QueueWait.OverShare = nil, nil
	if d := Compare(quiet, quiet, "a", "b"); len(d.SLIs)+len(d.KindSLIs) != 0 {
		t.Errorf("a quiet controller against itself: %+v %+v", d.SLIs, d.KindSLIs)
	}
	a := withSLI(reportOf("widget-aaaa", 0, 2), 150, 0.08, 0, "holds", "")
	b := withSLI(reportOf("widget-aaaa", 0, 2), 300, 0.08, 0, "holds", "")
	if d := Compare(a, b, "a", "b"); len(d.SLIs) != 0 {
		t.Errorf("only the count of waits changed, yet: %+v", d.SLIs)
	}
	d := Compare(a, view.Report{Kind: view.ReportKind}, "a", "b")
	if len(d.SLIs) != 1 || d.SLIs[0].Change != "gone" || d.SLIs[0].QueueWait.Change != "holds -> -" {
		t.Errorf("a gone queue: %+v", d.SLIs)
	}
}

// A report made before the service levels (queues, no slis) is not taken for one whose
// queues all appeared: nothing is compared and the note says which side lacks them.
func TestCompareSLIsOfAnOlderReport(t *testing.T) {
	old := reportOf("widget-aaaa", 0, 2)
	now := withSLI(reportOf("widget-bbbb", 0, 2), 150, 0.08, 0, "holds", "")
	d := Compare(old, now, "before", "after")
	if len(d.SLIs) != 0 || !strings.HasPrefix(d.SLINote, "BEFORE has queues but no service levels") {
		t.Errorf("slis %+v note %q, want none compared and a note on BEFORE", d.SLIs, d.SLINote)
	}
	var out bytes.Buffer
	if err := render.DiffText(&out, d); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "SERVICE LEVELS\nBEFORE has queues but no service levels") {
		t.Errorf("the text does not say so:\n%s", out.String())
	}
}
