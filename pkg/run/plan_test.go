package run

import (
	"context"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
)

const pages = "../../testdata/pages/"

// pagesPlan reads a pair of saved pages of one controller-runtime manager.
func pagesPlan() Plan {
	return Plan{Spec: Spec{Files: []string{pages + "controller-runtime-1.prom," + pages + "controller-runtime-2.prom"},
		Interval: 3 * time.Second, Timeout: 5 * time.Second, MaxBodyBytes: DefaultMaxBodyBytes, Concurrency: 1, Deadline: time.Minute}}
}

// One plan through queues and report: the same queues, the same STATUS as the report's
// findings say, and the report's result decides --fail-on.
func TestQueuesAndReportOfOnePlan(t *testing.T) {
	ctx := context.Background()
	th := findings.DefaultThresholds()
	qr, err := Queues(ctx, pagesPlan(), th)
	if err != nil {
		t.Fatal(err)
	}
	if len(qr.List.Items) == 0 || qr.List.Window != "3s" {
		t.Fatalf("queues: %d items over %q", len(qr.List.Items), qr.List.Window)
	}
	for _, level := range []string{"none", "warning"} {
		l, err := findings.FailOnReported.Parse(level)
		if err != nil {
			t.Fatal(err)
		}
		rr, err := Report(ctx, pagesPlan(), ReportOptions{Thresholds: th, IgnoreFile: "none", FailOn: l})
		if err != nil {
			t.Fatal(err)
		}
		if rr.NoneRead() || len(rr.Report.Findings) == 0 {
			t.Fatalf("report: read %d, %d findings", rr.Report.Summary.Read, len(rr.Report.Findings))
		}
		// The pages hold a failing queue: a warning or worse, which only --fail-on warning
		// fails on.
		if want := level == "warning"; rr.Failed() != want {
			t.Errorf("--fail-on %s: Failed() = %v, want %v", level, rr.Failed(), want)
		}
	}
}

// top's plan keeps the port-forwards and asks the history in steps of the refresh, on its
// own copy: the plan it was given is not changed.
func TestTopDoesNotWriteBack(t *testing.T) {
	p := pagesPlan()
	p.Spec.Files, p.Spec.URLs = nil, []string{"http://127.0.0.1:1/metrics"}
	p.Progress = func(string, int) Progress { return nil }
	top, err := Top(p, TopConfig{Thresholds: findings.DefaultThresholds(), Refresh: time.Minute, HistoryPoints: 30})
	if err != nil {
		t.Fatal(err)
	}
	defer top.Close()
	if p.Spec.KeepForwards || p.Spec.Prometheus.HistoryStep != 0 || p.Progress == nil {
		t.Errorf("the plan was written to: %+v", p.Spec)
	}
}
