//go:build envtest

package operator_test

import (
	"testing"
	"time"
)

// window is what a scenario check sees: two scrapes some seconds apart.
type window struct {
	t       *testing.T
	ctrl    string
	a, b    families
	seconds float64
	inst    *instance
}

func (w window) q() map[string]string { return map[string]string{"name": w.ctrl} }
func (w window) c() map[string]string { return map[string]string{"controller": w.ctrl} }

// rate is the per-second increase of a counter over the window.
func (w window) rate(name string, labels map[string]string) float64 {
	return (w.b.sum(name, labels) - w.a.sum(name, labels)) / w.seconds
}

func (w window) hist(name string, labels map[string]string) histogram {
	return w.b.histogram(name, labels).minus(w.a.histogram(name, labels))
}

func (w window) workP99() float64 {
	return w.hist("workqueue_work_duration_seconds", w.q()).quantile(0.99)
}

func (w window) logCommon() {
	w.t.Logf("depth %.0f->%.0f adds/s %.1f retries/s %.1f errors/s %.2f active %.0f/%.0f work p99 %.3fs queue p99 %.3fs longest %.1fs unfinished %.1fs",
		w.a.sum("workqueue_depth", w.q()), w.b.sum("workqueue_depth", w.q()),
		w.rate("workqueue_adds_total", w.q()), w.rate("workqueue_retries_total", w.q()),
		w.rate("controller_runtime_reconcile_errors_total", w.c()),
		w.b.sum("controller_runtime_active_workers", w.c()), w.b.sum("controller_runtime_max_concurrent_reconciles", w.c()),
		w.workP99(), w.hist("workqueue_queue_duration_seconds", w.q()).quantile(0.99),
		w.b.sum("workqueue_longest_running_processor_seconds", w.q()), w.b.sum("workqueue_unfinished_work_seconds", w.q()))
}

type scenarioCase struct {
	name           string
	warm, duration time.Duration
	check          func(w window)
}

func TestScenarioSignatures(t *testing.T) {
	cases := []scenarioCase{
		{"healthy", 8 * time.Second, 10 * time.Second, func(w window) {
			if d := w.b.sum("workqueue_depth", w.q()); d != 0 {
				t.Errorf("healthy: depth %v, want 0", d)
			}
			if e := w.b.sum("controller_runtime_reconcile_errors_total", w.c()); e != 0 {
				t.Errorf("healthy: %v reconcile errors, want 0", e)
			}
			if p := w.workP99(); !(p < 0.5) {
				t.Errorf("healthy: work p99 %.3fs, want < 0.5s", p)
			}
			checkFamilies(w)
		}},
		{"slow", 8 * time.Second, 12 * time.Second, func(w window) {
			if p := w.workP99(); p < 1 {
				t.Errorf("slow: work p99 %.3fs, want >= 1s", p)
			}
			if m := w.hist("workqueue_work_duration_seconds", w.q()).mean(); m < 2.5 {
				t.Errorf("slow: mean work %.3fs, want about 3s", m)
			}
			act, max := w.b.sum("controller_runtime_active_workers", w.c()), w.b.sum("controller_runtime_max_concurrent_reconciles", w.c())
			if act >= max {
				t.Errorf("slow: active workers %v of %v, want fewer than max", act, max)
			}
			if e := w.rate("controller_runtime_reconcile_errors_total", w.c()); e != 0 {
				t.Errorf("slow: errors/s %v, want 0", e)
			}
		}},
		{"saturated", 10 * time.Second, 10 * time.Second, func(w window) {
			da, db := w.a.sum("workqueue_depth", w.q()), w.b.sum("workqueue_depth", w.q())
			// Near its 150 objects the depth hovers (a touch of a queued object adds nothing), so
			// it may fall a little: deep at both ends is the signature.
			if !(da > 10 && db > 10) {
				t.Errorf("saturated: depth %v -> %v, want > 10 at both samples", da, db)
			}
			act, max := w.b.sum("controller_runtime_active_workers", w.c()), w.b.sum("controller_runtime_max_concurrent_reconciles", w.c())
			if act != max {
				t.Errorf("saturated: active workers %v, want max %v", act, max)
			}
		}},
		{"stuck", 5 * time.Second, 8 * time.Second, func(w window) {
			la, lb := w.a.sum("workqueue_longest_running_processor_seconds", w.q()), w.b.sum("workqueue_longest_running_processor_seconds", w.q())
			if !(lb > la+5) {
				t.Errorf("stuck: longest running %v -> %v, want growing by the window", la, lb)
			}
			if u := w.b.sum("workqueue_unfinished_work_seconds", w.q()); u < lb {
				t.Errorf("stuck: unfinished work %v < longest %v", u, lb)
			}
		}},
		{"errors", 5 * time.Second, 10 * time.Second, func(w window) {
			if e := w.rate("controller_runtime_reconcile_errors_total", w.c()); e < 0.5 {
				t.Errorf("errors: reconcile errors/s %v, want >= 0.5", e)
			}
			if r := w.rate("workqueue_retries_total", w.q()); r < 0.5 {
				t.Errorf("errors: retries/s %v, want >= 0.5", r)
			}
			if s := w.rate("controller_runtime_reconcile_total", map[string]string{"controller": w.ctrl, "result": "success"}); s != 0 {
				t.Errorf("errors: successes/s %v, want 0", s)
			}
		}},
		{"hotloop", 5 * time.Second, 10 * time.Second, func(w window) {
			ra := w.rate("controller_runtime_reconcile_total", map[string]string{"controller": w.ctrl, "result": "requeue_after"})
			if ra < 20 {
				t.Errorf("hotloop: requeue_after reconciles/s %v, want >= 20", ra)
			}
			if m := w.hist("workqueue_work_duration_seconds", w.q()).mean(); m > 0.02 {
				t.Errorf("hotloop: mean work %.4fs, want < 20ms", m)
			}
			t.Logf("hotloop: requeue_after/s %.1f, mean work %.5fs", ra, w.hist("workqueue_work_duration_seconds", w.q()).mean())
		}},
		{"throttled", 10 * time.Second, 10 * time.Second, func(w window) {
			h := w.b.histogram("rest_client_rate_limiter_duration_seconds", nil)
			if h.quantile(0.99) < 1 {
				t.Errorf("throttled: rate limiter p99 since start %.3fs, want >= 1s", h.quantile(0.99))
			}
			t.Logf("throttled: rate limiter p99 since start %.3fs, window p99 %.3fs, max wait bucket count>1s %v",
				h.quantile(0.99), w.hist("rest_client_rate_limiter_duration_seconds", nil).quantile(0.99), h.count-h.buckets[1])
		}},
		{"stale", 10 * time.Second, 10 * time.Second, func(w window) {
			wl := map[string]string{"name": w.ctrl, "resource": "workloads"}
			qa, qb := w.a.sum("informer_queued_items", wl), w.b.sum("informer_queued_items", wl)
			lat := w.hist("informer_processing_latency_seconds", wl)
			if !(qb > 5 || qa > 5) {
				t.Errorf("stale: informer queued items %v -> %v, want > 5", qa, qb)
			}
			if lat.mean() < 0.03 {
				t.Errorf("stale: informer processing latency mean %.3fs, want >= 30ms", lat.mean())
			}
			lag := w.hist("ctrldiag_operator_event_handler_lag_seconds", map[string]string{"controller": w.ctrl, "resource": "workloads"})
			t.Logf("stale: queued %v -> %v, processing mean %.3fs p99 %.3fs, handler lag p50 %.2fs p99 %.2fs, store RV %v",
				qa, qb, lat.mean(), lat.quantile(0.99), lag.quantile(0.5), lag.quantile(0.99), w.b.sum("informer_store_resource_version", wl))
		}},
		{"memory", 20 * time.Second, 5 * time.Second, func(w window) {
			heap := w.b.sum("go_memstats_heap_inuse_bytes", nil)
			if heap < 40e6 {
				t.Errorf("memory: heap in use %.0f MB, want >= 40 MB", heap/1e6)
			}
			t.Logf("memory: heap in use %.0f MB, RSS %.0f MB", heap/1e6, w.b.sum("process_resident_memory_bytes", nil)/1e6)
		}},
		// Healed 20s after the objects were applied: the first sample comes some seconds later.
		{"past-incident", 28 * time.Second, 10 * time.Second, checkPastIncident},
		// Past the first 31s reconcile, so that the lifetime histogram holds it.
		{"long-reconcile", 36 * time.Second, 10 * time.Second, checkLongReconcile},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := start(t, tc.name, tc.name, nil)
			in.waitForController(t, "")
			time.Sleep(tc.warm)
			a := in.sample(t)
			time.Sleep(tc.duration)
			b := in.sample(t)
			w := window{t: t, ctrl: in.controller, a: a, b: b, seconds: tc.duration.Seconds(), inst: in}
			w.logCommon()
			tc.check(w)
			in.stop(t)
		})
	}
}

// checkFamilies asserts that every standard family is on the page with the expected labels.
func checkFamilies(w window) {
	t := w.t
	for _, name := range []string{"workqueue_depth", "workqueue_adds_total", "workqueue_retries_total",
		"workqueue_queue_duration_seconds", "workqueue_work_duration_seconds",
		"workqueue_unfinished_work_seconds", "workqueue_longest_running_processor_seconds"} {
		if !w.b.hasLabels(name, "name", "controller") {
			t.Errorf("%s with labels {name, controller} missing", name)
		}
	}
	for _, name := range []string{"controller_runtime_reconcile_total", "controller_runtime_reconcile_errors_total",
		"controller_runtime_reconcile_time_seconds", "controller_runtime_active_workers",
		"controller_runtime_max_concurrent_reconciles", "rest_client_requests_total",
		"rest_client_request_duration_seconds", "rest_client_rate_limiter_duration_seconds",
		"leader_election_master_status", "process_resident_memory_bytes", "go_goroutines",
		"ctrldiag_operator_event_handler_lag_seconds"} {
		if _, ok := w.b[name]; !ok {
			t.Errorf("family %s missing", name)
		}
	}
	for _, res := range []string{"workloads", "configmaps"} {
		l := map[string]string{"name": w.ctrl, "resource": res}
		for _, name := range []string{"informer_queued_items", "informer_processing_latency_seconds", "informer_store_resource_version"} {
			found := false
			for _, m := range w.b[name].GetMetric() {
				found = found || matches(m, l)
			}
			if !found {
				t.Errorf("%s{name=%q,resource=%q} missing", name, w.ctrl, res)
			}
		}
	}
	if v := w.b.sum("leader_election_master_status", map[string]string{"name": w.inst.leaseID}); v != 1 {
		t.Errorf("leader_election_master_status{name=%q} = %v, want 1", w.inst.leaseID, v)
	}
	lag := w.b.histogram("ctrldiag_operator_event_handler_lag_seconds", map[string]string{"controller": w.ctrl})
	t.Logf("event handler lag: %v events, p50 %.3fs p99 %.3fs", lag.count, lag.quantile(0.5), lag.quantile(0.99))
}
