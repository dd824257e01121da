//go:build envtest

package operator_test

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/api/v1alpha1"
)

// The scenarios in this file look faulty and are not: their checks hold the metrics to the
// scenario's signature and the rules of report to saying nothing above info about them.

// checkPastIncident: the objects failed for 20s and were healed; the counters since start
// keep the incident, the window holds only successes, every object is Ready again, and the
// rules raise nothing above info.
func checkPastIncident(w window) {
	t := w.t
	life := w.b.sum("controller_runtime_reconcile_errors_total", w.c())
	if life < 50 {
		t.Errorf("past-incident: %v reconcile errors since start, want >= 50 from the incident", life)
	}
	if e := w.rate("controller_runtime_reconcile_errors_total", w.c()); e != 0 {
		t.Errorf("past-incident: reconcile errors/s %v in the window, want 0 once healed", e)
	}
	ok := w.rate("controller_runtime_reconcile_total", map[string]string{"controller": w.ctrl, "result": "success"})
	if ok < 1 {
		t.Errorf("past-incident: successes/s %v, want >= 1 (5 touches/s)", ok)
	}
	for _, wl := range workloads(w) {
		if c := meta.FindStatusCondition(wl.Status.Conditions, v1alpha1.ConditionReady); c == nil || c.Status != "True" {
			t.Errorf("past-incident: %s not Ready=True after the heal: %+v", wl.Name, c)
		}
		if wl.Spec.FailureRate != 0 {
			t.Errorf("past-incident: %s still has failureRate %v", wl.Name, wl.Spec.FailureRate)
		}
	}
	fs := w.diagnose()
	if s := serious(fs); s != "" {
		t.Errorf("past-incident: a healed incident raised %s", s)
	}
	t.Logf("past-incident: %.0f errors since start, %.1f successes/s and %.1f errors/s in the window; findings: %q",
		life, ok, w.rate("controller_runtime_reconcile_errors_total", w.c()), checks(fs))
}

// checkLongReconcile: one object takes 31s a reconcile, past stuckAfter (30s), among many fast
// ones. It is never stuck: in a window that starts when the long item is past 30s, it ends
// before the second sample; and one long item among >100 fast ones leaves work p99 fast.
func checkLongReconcile(w window) {
	t := w.t
	life := w.b.histogram("workqueue_work_duration_seconds", w.q())
	if long := life.over(10); long < 1 {
		t.Errorf("long-reconcile: no reconcile of more than 10s since start (%v reconciles)", life.count)
	}
	win := w.hist("workqueue_work_duration_seconds", w.q())
	if win.count < w.seconds*20 {
		t.Errorf("long-reconcile: %v reconciles in %.0fs, want >= 20/s", win.count, w.seconds)
	}
	if p := win.quantile(0.99); !(p < 0.1) {
		t.Errorf("long-reconcile: work p99 %.3fs in the window, want < 100ms", p)
	}
	if s := serious(w.diagnose()); s != "" {
		t.Errorf("long-reconcile: raised %s", s)
	}

	// The window a stuck reconcile would show: the first sample with the long item past 30s.
	deadline := time.Now().Add(40 * time.Second)
	var a families
	for {
		a = w.inst.sample(t)
		if a.sum("workqueue_longest_running_processor_seconds", w.q()) >= 30 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("long-reconcile: workqueue_longest_running_processor_seconds never reached 30s within 40s")
		}
		time.Sleep(200 * time.Millisecond)
	}
	time.Sleep(5 * time.Second)
	b := w.inst.sample(t)
	la, lb := a.sum("workqueue_longest_running_processor_seconds", w.q()), b.sum("workqueue_longest_running_processor_seconds", w.q())
	done := b.histogram("workqueue_work_duration_seconds", w.q()).minus(a.histogram("workqueue_work_duration_seconds", w.q()))
	if long := done.over(10); long != 1 {
		t.Errorf("long-reconcile: %v reconciles over 10s ended in the window, want the one long item", long)
	}
	fs := diagnose(a, b, 5, w.ctrl, w.inst.leaseID)
	if s := serious(fs); s != "" {
		t.Errorf("long-reconcile: the window from %.1fs to %.1fs longest running raised %s", la, lb, s)
	}
	t.Logf("long-reconcile: longest running %.1fs -> %.1fs, %v reconciles in 5s, work p99 %.4fs; findings %q",
		la, lb, done.count, done.quantile(0.99), checks(fs))
}

// over counts the observations above the largest bucket bound of at most secs (bounds such
// as 10 come out of exponential buckets as 9.999999999999998 or 10.000000000000002).
func (h histogram) over(secs float64) float64 {
	under := 0.0
	for ub, c := range h.buckets {
		if ub <= secs*1.001 && c > under {
			under = c
		}
	}
	return h.count - under
}

// workloads lists the scenario's Workloads as they are now.
func workloads(w window) []v1alpha1.Workload {
	s := runtime.NewScheme()
	if err := v1alpha1.AddToScheme(s); err != nil {
		w.t.Fatal(err)
	}
	c, err := client.New(restCfg, client.Options{Scheme: s})
	if err != nil {
		w.t.Fatal(err)
	}
	var l v1alpha1.WorkloadList
	if err := c.List(context.Background(), &l, client.InNamespace(w.inst.ns)); err != nil {
		w.t.Fatal(err)
	}
	if len(l.Items) == 0 {
		w.t.Fatalf("no Workloads in %s", w.inst.ns)
	}
	return l.Items
}
