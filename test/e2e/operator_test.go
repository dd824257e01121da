//go:build e2e

package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// operatorPage is one /metrics page of the reference operator, scraped through the API server's
// pod proxy exactly as a user would: kubectl get --raw .../pods/NAME:8080/proxy/metrics.
type operatorPage map[string]*dto.MetricFamily

// value sums the counter or gauge series of name whose labels include want.
func (p operatorPage) value(name string, want map[string]string) float64 {
	var s float64
	for _, m := range p[name].GetMetric() {
		ok := true
		for k, v := range want {
			found := false
			for _, l := range m.GetLabel() {
				found = found || (l.GetName() == k && l.GetValue() == v)
			}
			ok = ok && found
		}
		if ok {
			s += m.GetCounter().GetValue() + m.GetGauge().GetValue()
		}
	}
	return s
}

func scrapeOperator(t *testing.T, ns, pod string) operatorPage {
	t.Helper()
	raw := mustKubectl(t, "get", "--raw", fmt.Sprintf("/api/v1/namespaces/%s/pods/%s:8080/proxy/metrics", ns, pod))
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(raw))
	if err != nil {
		t.Fatalf("parse the operator's metrics: %v", err)
	}
	return operatorPage(fams)
}

// TestOperatorScenarios runs `kubectl ctrldiag operator run --scenario X` behind a pod and checks
// each scenario's signature through the API-server proxy.
func TestOperatorScenarios(t *testing.T) {
	crowd(t)
	const ctrl = "workload"
	q := map[string]string{"name": ctrl}
	c := map[string]string{"controller": ctrl}
	cases := []struct {
		scenario string
		window   time.Duration
		check    func(t *testing.T, a, b operatorPage, secs float64)
	}{
		{"healthy", 8 * time.Second, func(t *testing.T, a, b operatorPage, _ float64) {
			for _, fam := range []string{"workqueue_depth", "workqueue_adds_total", "workqueue_retries_total",
				"workqueue_queue_duration_seconds", "workqueue_work_duration_seconds", "workqueue_unfinished_work_seconds",
				"workqueue_longest_running_processor_seconds", "controller_runtime_reconcile_total",
				"rest_client_requests_total", "rest_client_rate_limiter_duration_seconds", "leader_election_master_status",
				"informer_queued_items", "informer_processing_latency_seconds", "informer_store_resource_version",
				"process_resident_memory_bytes", "go_goroutines", "ctrldiag_operator_event_handler_lag_seconds"} {
				if _, ok := b[fam]; !ok {
					t.Errorf("family %s missing", fam)
				}
			}
			if d, e := b.value("workqueue_depth", q), b.value("controller_runtime_reconcile_errors_total", c); d != 0 || e != 0 {
				t.Errorf("depth %v errors %v, want 0 and 0", d, e)
			}
		}},
		{"stuck", 6 * time.Second, func(t *testing.T, a, b operatorPage, secs float64) {
			la, lb := a.value("workqueue_longest_running_processor_seconds", q), b.value("workqueue_longest_running_processor_seconds", q)
			if lb < la+secs/2 {
				t.Errorf("longest running processor %v -> %v, want growing", la, lb)
			}
		}},
		{"errors", 8 * time.Second, func(t *testing.T, a, b operatorPage, secs float64) {
			e := (b.value("controller_runtime_reconcile_errors_total", c) - a.value("controller_runtime_reconcile_errors_total", c)) / secs
			if e < 0.5 {
				t.Errorf("reconcile errors/s %.2f, want >= 0.5", e)
			}
		}},
		{"hotloop", 8 * time.Second, func(t *testing.T, a, b operatorPage, secs float64) {
			r := map[string]string{"controller": ctrl, "result": "requeue_after"}
			if n := (b.value("controller_runtime_reconcile_total", r) - a.value("controller_runtime_reconcile_total", r)) / secs; n < 20 {
				t.Errorf("requeue_after reconciles/s %.1f, want >= 20", n)
			}
		}},
		{"saturated", 8 * time.Second, func(t *testing.T, a, b operatorPage, _ float64) {
			if d := b.value("workqueue_depth", q); d < 10 {
				t.Errorf("depth %v, want >= 10", d)
			}
			if act, max := b.value("controller_runtime_active_workers", c), b.value("controller_runtime_max_concurrent_reconciles", c); act != max {
				t.Errorf("active workers %v, want %v", act, max)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.scenario, func(t *testing.T) {
			sub(t) // each scenario has its own namespace and operator
			ns := newNamespace(t)
			pod := startBehindPod(t, podSpec{Namespace: ns, Name: "operator-" + tc.scenario,
				Labels: map[string]string{"control-plane": "controller-manager"},
				Ports:  []podPort{{Name: "http-metrics", Port: 8080}},
				Command: func(listen map[int32]string) []string {
					return []string{filepath.Join(env.binDir, "kubectl-ctrldiag"), "operator", "run", "-n", ns,
						"--scenario", tc.scenario, "--metrics-bind-address", listen[8080], "--health-probe-bind-address", "0"}
				}})
			eventually(t, 60*time.Second, "the controller's workqueue series", func() error {
				if scrapeOperator(t, ns, pod.Name).value("workqueue_adds_total", q) == 0 {
					return fmt.Errorf("no adds yet")
				}
				return nil
			})
			time.Sleep(5 * time.Second)
			a := scrapeOperator(t, ns, pod.Name)
			time.Sleep(tc.window)
			b := scrapeOperator(t, ns, pod.Name)
			tc.check(t, a, b, tc.window.Seconds())
			if err := pod.Stop(t); err != nil {
				t.Errorf("operator did not exit 0 on SIGTERM: %v", err)
			}
		})
	}
}
