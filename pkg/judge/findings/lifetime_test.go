package findings

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/testpages"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// onePage is one sample of a controller-runtime controller "c" whose reconciles since the
// process started ended with these results.
func onePage(t *testing.T, results map[string]float64) Target {
	t.Helper()
	var b strings.Builder
	b.WriteString("workqueue_depth{name=\"c\",controller=\"c\"} 0\n")
	for res, v := range results {
		fmt.Fprintf(&b, "controller_runtime_reconcile_total{controller=\"c\",result=%q} %g\n", res, v)
	}
	fmt.Fprintf(&b, "controller_runtime_reconcile_errors_total{controller=\"c\"} %g\n", results["error"])
	cur := health.FromFamilies(testpages.ParseText(t, b.String()), time.Time{})
	tg := Target{ID: "flux-system/source-controller:8080", Kind: ControllerRuntime, Cur: cur, Queues: health.Queues("t", nil, cur, 0)}
	Judge(&tg, DefaultThresholds())
	return tg
}

// One page of a controller whose sources fail (FluxCD's source-controller: 42 of 73 reconciles
// failed, none returned success, the rest requeued): not healthy. A warning that says the
// counts are lifetime ones, what one sample cannot tell and how to read a window; the queue is
// FAILING.
func TestOnePageOfAFailingControllerIsNoHealthyVerdict(t *testing.T) {
	tg := onePage(t, map[string]float64{"error": 42, "success": 0, "requeue": 3, "requeue_after": 28})
	fs := Evaluate([]Target{tg}, nil, nil, DefaultThresholds())
	if got := checks(fs); got != "warning:lifetime-failures" {
		t.Fatalf("got %q %+v", got, fs)
	}
	f := fs[0]
	for _, want := range []string{"one sample: lifetime counts show 42 of 73 reconciles of c failed and none returned success",
		"since the process started", "one sample cannot tell whether it still fails", "--interval 30s"} {
		if !strings.Contains(f.Summary, want) {
			t.Errorf("summary lacks %q: %s", want, f.Summary)
		}
	}
	if f.Code != "CD218" {
		t.Errorf("code %s", f.Code)
	}
	if q := tg.Queues[0]; q.Status != health.StatusFailing || !strings.Contains(q.Reason, "(CD218)") {
		t.Errorf("status %s %q", q.Status, q.Reason)
	}
	if fs := Evaluate([]Target{onePage(t, map[string]float64{"error": 12})}, nil, nil, DefaultThresholds()); !strings.Contains(checks(fs), "warning:lifetime-failures") ||
		!strings.Contains(fs[0].Summary, "12 of 12 reconciles of c failed and none succeeded") {
		t.Errorf("every reconcile failed: %q %+v", checks(fs), fs)
	}
}

// Healthy controllers read once: failures at start-up (a webhook not ready, conflicts), a
// past incident among many reconciles, a handful of failures of a young process, a periodic
// requeuer that never returns success. None is a warning.
func TestOnePageOfAHealthyControllerIsNoWarning(t *testing.T) {
	for name, results := range map[string]map[string]float64{
		"start-up failures":           {"error": 6, "success": 400, "requeue_after": 120},
		"past incident, half failed":  {"error": 500, "success": 500},
		"young process, all failed":   {"error": 9},
		"few reconciles, most failed": {"error": 5, "success": 3},
		"periodic requeues":           {"error": 4, "success": 0, "requeue_after": 300},
		"conflicts":                   {"error": 40, "success": 160},
	} {
		fs := Evaluate([]Target{onePage(t, results)}, nil, nil, DefaultThresholds())
		if w := Worst(fs); w == Warning || w == Critical {
			t.Errorf("%s: %s: %+v", name, checks(fs), fs)
		}
	}
}

// With two samples the window judges: lifetime counts alone never raise lifetime-failures.
func TestLifetimeFailuresNeedOneSample(t *testing.T) {
	tg := crTarget(queue(nil), map[string]float64{"error": 42, "requeue_after": 31}, map[string]float64{"error": 42, "requeue_after": 41}, 42)
	tg.Queues[0].ReconcileErrors = 0
	if got := checks(Evaluate([]Target{tg}, nil, nil, DefaultThresholds())); strings.Contains(got, "lifetime-failures") {
		t.Errorf("two samples: %q", got)
	}
}

// One sample, and the objects' status says which fail: that state is the finding
// (persistent-failures, a warning naming them), not an info retry-storm from the counts.
func TestOnePageWithFailingObjectsNamesThem(t *testing.T) {
	tg := onePage(t, map[string]float64{"error": 42, "success": 0, "requeue_after": 31})
	tg.ID = "ns/op:8080"
	tg.Objects = failingView(tg.ID)
	tg.Objects.Kinds[0].Controllers = []string{tg.ID + " c"}
	fs := Evaluate([]Target{tg}, nil, nil, DefaultThresholds())
	if got := checks(fs); got != "warning:persistent-failures" || !strings.Contains(fs[0].Summary, "6 of 11 Workload objects failed") {
		t.Errorf("got %q %+v", got, fs)
	}
}

// One page of a controller whose first reconciles were slow (a start-up on a busy node): its
// work p99 since the process started is 10s, but one sample cannot tell whether reconciles are
// slow now, so slow-reconcile is info and says how to judge; read twice, it is a warning.
func TestOnePageOfSlowStartUpIsInfo(t *testing.T) {
	page := func(count float64) string {
		return fmt.Sprintf(`workqueue_depth{name="c",controller="c"} 0
workqueue_work_duration_seconds_bucket{name="c",controller="c",le="1"} 0
workqueue_work_duration_seconds_bucket{name="c",controller="c",le="10"} %[1]g
workqueue_work_duration_seconds_bucket{name="c",controller="c",le="+Inf"} %[1]g
workqueue_work_duration_seconds_sum{name="c",controller="c"} %[2]g
workqueue_work_duration_seconds_count{name="c",controller="c"} %[1]g
workqueue_adds_total{name="c",controller="c"} %[1]g
`, count, 9*count)
	}
	cur := health.FromFamilies(testpages.ParseText(t, page(20)), time.Time{})
	one := Target{ID: "ns/c:8080", Kind: ControllerRuntime, Cur: cur, Queues: health.Queues("t", nil, cur, 0)}
	Judge(&one, DefaultThresholds())
	fs := Evaluate([]Target{one}, nil, nil, DefaultThresholds())
	if got := checks(fs); got != "info:slow-reconcile" {
		t.Fatalf("one sample: got %q %+v", got, fs)
	}
	if s := fs[0].Summary; !strings.Contains(s, "since the process started") || !strings.Contains(s, "--interval") {
		t.Errorf("one sample: the summary does not say the p99 is a lifetime one and how to judge: %s", s)
	}

	prev := health.FromFamilies(testpages.ParseText(t, page(10)), time.Time{})
	two := Target{ID: "ns/c:8080", Kind: ControllerRuntime, Prev: prev, Cur: cur, Window: 10 * time.Second,
		Queues: health.Queues("t", prev, cur, 10*time.Second)}
	Judge(&two, DefaultThresholds())
	if got := checks(Evaluate([]Target{two}, nil, nil, DefaultThresholds())); !strings.Contains(got, "warning:slow-reconcile") {
		t.Errorf("two samples with 10 slow reconciles in the window: got %q", got)
	}
}
