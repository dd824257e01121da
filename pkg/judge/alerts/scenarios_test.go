package alerts

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// scenario is what Prometheus scrapes while a fault (or a healthy but tricky case) lasts,
// and exactly the alerts that must fire at the end.
type scenario struct {
	name, about string
	in          inputs
	at          string // eval time; default 30m
	fire        []string
	// alertTest is a promtool alert_rule_test (YAML at the indentation of its list) that
	// checks an alert's labels and rendered annotations.
	alertTest string
}

// saturatedAlert is the alert of the saturated scenario as Alertmanager receives it.
const saturatedAlert = `      - eval_time: 30m
        alertname: CtrlDiagWorkersSaturated
        exp_alerts:
          - exp_labels:
              severity: warning
              check: workers-saturated
              code: CD208
              name: workload
              controller: workload
              job: op
              instance: 10.0.0.1:8080
              namespace: demo
              pod: op-0
              container: manager
            exp_annotations:
              summary: All workers of queue workload of demo/op-0 are busy
              description: 'All workers of queue workload of demo/op-0 are busy and 150 items wait (queue p99 >= 1s, or the depth grew by 10 or more in 5m or held that many through it): raise the workers or make items cheaper. Evidence: kubectl ctrldiag report -n demo.'
              runbook_url: https://github.com/ctrldiag/kubectl-ctrldiag/blob/main/docs/alerts.md#cd208-workers-saturated
`

// scenarios reproduce the signatures of the reference operator's scenarios (docs/operator.md)
// over one-minute scrapes, and the healthy cases that must stay silent.
func scenarios() []scenario {
	rest := atRest()
	return []scenario{
		{name: "at-rest", about: "the healthy operator, an idle kube-controller-manager (retries 3/s, one per add), an idle API server, a database that is down", in: rest},
		{name: "saturated", about: "depth 120 and rising 1/min, active 2/2, items wait ~60s, 2 done/s of 1s each", fire: []string{"WorkersSaturated", "BacklogHigh", "QueueWaitBudgetBurnFast", "QueueWaitBudgetBurnSlow"},
			alertTest: saturatedAlert,
			in: rest.with(inputs{
				series("workqueue_depth", q, `priority="0"`):                        "120+1x130",
				series("controller_runtime_active_workers", c):                      gauge(2),
				series("controller_runtime_reconcile_total", c, `result="success"`): counter(120),
			}, histogram("workqueue_queue_duration_seconds", q, obs{60, 120}), histogram("workqueue_work_duration_seconds", q, obs{0.9, 120}))},
		// The report's twin: a wait p99 from fewer than minEvents waits is info.
		{name: "saturated-on-a-few-waits", about: "depth 3 flat, active 2/2, 1 item a minute waits 60s (5 waits in the window), 1 done/min of 0.5s each", in: rest.with(inputs{
			series("workqueue_depth", q, `priority="0"`):                        gauge(3),
			series("controller_runtime_active_workers", c):                      gauge(2),
			series("controller_runtime_reconcile_total", c, `result="success"`): counter(1),
		}, histogram("workqueue_queue_duration_seconds", q, obs{60, 1}), histogram("workqueue_work_duration_seconds", q, obs{0.5, 1}))},
		// A backlog held through the window says it with few waits: a slow queue serves few.
		{name: "saturated-slowly", about: "depth 40 flat, active 2/2, 1 item a minute waits 60s (5 waits in the window), 1 done/min of 0.5s each", fire: []string{"WorkersSaturated"},
			in: rest.with(inputs{
				series("workqueue_depth", q, `priority="0"`):                        gauge(40),
				series("controller_runtime_active_workers", c):                      gauge(2),
				series("controller_runtime_reconcile_total", c, `result="success"`): counter(1),
			}, histogram("workqueue_queue_duration_seconds", q, obs{60, 1}), histogram("workqueue_work_duration_seconds", q, obs{0.5, 1}))},
		// Both workers held the whole window (a server that never answers): no wait to quantile.
		{name: "saturated-none-served", about: "depth 3 flat, active 2/2, no item leaves the queue nor finishes", fire: []string{"WorkersSaturated"},
			in: rest.with(inputs{
				series("workqueue_depth", q, `priority="0"`):                        gauge(3),
				series("controller_runtime_active_workers", c):                      gauge(2),
				series("controller_runtime_reconcile_total", c, `result="success"`): counter(0),
			}, histogram("workqueue_queue_duration_seconds", q, obs{60, 0}), histogram("workqueue_work_duration_seconds", q, obs{0.5, 0}))},
		{name: "stuck", about: "one item in a worker since minute 5, its age growing 1s/s; the others fast", fire: []string{"WorkerStuck"},
			in: rest.with(inputs{
				series("workqueue_longest_running_processor_seconds", q): "0x5 60+60x125",
				series("workqueue_unfinished_work_seconds", q):           "0x5 60+60x125",
				series("controller_runtime_active_workers", c):           gauge(1),
			})},
		{name: "long-reconcile-that-ends", about: "one reconcile of 3 minutes, judged while it runs, near its end: not stuck", at: "8m", in: rest.with(inputs{
			series("workqueue_longest_running_processor_seconds", q): "0x5 60+60x2 0x123",
		})},
		{name: "errors", about: "every reconcile fails, 20/s, and is retried", fire: []string{"RetryStorm"},
			in: rest.with(inputs{
				series("controller_runtime_reconcile_total", c, `result="success"`): counter(0),
				series("controller_runtime_reconcile_total", c, `result="error"`):   counter(1200),
				series("controller_runtime_reconcile_errors_total", c):              counter(1200),
				series("workqueue_retries_total", q):                                counter(1200),
				series("workqueue_adds_total", q):                                   counter(1200),
			})},
		{name: "failing", about: "some objects fail and back off: 3 failing reconciles a minute, 1 success", fire: []string{"PersistentFailures"},
			in: rest.with(inputs{
				series("controller_runtime_reconcile_total", c, `result="success"`): counter(1),
				series("controller_runtime_reconcile_total", c, `result="error"`):   counter(3),
				series("controller_runtime_reconcile_errors_total", c):              counter(3),
				series("workqueue_retries_total", q):                                counter(3),
			})},
		{name: "past-incident", about: "20 failing reconciles/s for 10 minutes, then none for 20: history", in: rest.with(inputs{
			series("controller_runtime_reconcile_total", c, `result="error"`): "0+1200x10 12000x120",
			series("controller_runtime_reconcile_errors_total", c):            "0+1200x10 12000x120",
		})},
		{name: "hotloop", about: "98 requeue_after reconciles/s of 0.2ms each", fire: []string{"HotLoop"},
			in: rest.with(inputs{
				series("controller_runtime_reconcile_total", c, `result="success"`):       counter(0),
				series("controller_runtime_reconcile_total", c, `result="requeue_after"`): counter(5880),
				series("workqueue_adds_total", q):                                         counter(5880),
				series("workqueue_retries_total", q):                                      counter(5880),
			}, histogram("workqueue_work_duration_seconds", q, obs{0.0002, 5880}))},
		{name: "polling", about: "300 objects each requeued after 20-40s: 8 requeue_after reconciles/s, no loop", in: rest.with(inputs{
			series("controller_runtime_reconcile_total", c, `result="success"`):       counter(0),
			series("controller_runtime_reconcile_total", c, `result="requeue_after"`): counter(480),
			series("workqueue_adds_total", q):                                         counter(480),
			series("workqueue_retries_total", q):                                      counter(480),
		}, histogram("workqueue_work_duration_seconds", q, obs{0.0005, 480}))},
		{name: "throttled", about: "requests wait 0.5s on average in the client's rate limiter (QPS 1)", fire: []string{"ClientThrottling"},
			in: rest.with(inputs{
				series("rest_client_rate_limiter_duration_seconds_sum", op, `verb="GET",host="10.96.0.1"`):   counter(30),
				series("rest_client_rate_limiter_duration_seconds_count", op, `verb="GET",host="10.96.0.1"`): counter(60),
			})},
		{name: "stale", about: "hundreds of events wait before the informer's handlers, handler p99 ~10s", fire: []string{"CacheSyncLag"},
			in: rest.with(inputs{
				series("informer_queued_items", op, `name="workload",group="demo.ctrldiag.dev",version="v1alpha1",resource="workloads"`): gauge(400),
			}, histogram("informer_processing_latency_seconds", op+`,name="workload",group="demo.ctrldiag.dev",version="v1alpha1",resource="workloads"`, obs{5, 60}))},
		{name: "memory", about: "resident memory 147MB of a 150Mi limit", fire: []string{"MemoryPressure"},
			in: rest.with(inputs{series("process_resident_memory_bytes", op): gauge(147e6)})},
		{name: "oomkilled", about: "the container was OOMKilled and restarted at minute 20", fire: []string{"OOMKilled", "Restarts"},
			in: rest.with(inputs{
				series("kube_pod_container_status_restarts_total", ksm, `namespace="demo",pod="op-0",container="manager"`):                            "0x20 1x110",
				series("kube_pod_container_status_last_terminated_reason", ksm, `namespace="demo",pod="op-0",container="manager",reason="OOMKilled"`): "_x20 1x110",
			})},
		{name: "old-oomkill", about: "an OOMKill and restart 100 minutes ago: history", at: "125m",
			in: rest.with(inputs{
				series("kube_pod_container_status_restarts_total", ksm, `namespace="demo",pod="op-0",container="manager"`):                            "0x20 1x110",
				series("kube_pod_container_status_last_terminated_reason", ksm, `namespace="demo",pod="op-0",container="manager",reason="OOMKilled"`): "_x20 1x110",
			})},
		{name: "starved", about: "40 items at priority -100 flat, 20 at priority 0 kept up with, active 2/2, 2 done/s", fire: []string{"PriorityStarvation", "QueueWaitBudgetBurnFast", "QueueWaitBudgetBurnSlow"},
			in: rest.with(inputs{
				series("workqueue_depth", q, `priority="-100"`):                     gauge(40),
				series("workqueue_depth", q, `priority="0"`):                        gauge(20),
				series("controller_runtime_active_workers", c):                      gauge(2),
				series("controller_runtime_reconcile_total", c, `result="success"`): counter(120),
			}, histogram("workqueue_queue_duration_seconds", q, obs{5, 120}), histogram("workqueue_work_duration_seconds", q, obs{0.9, 120}))},
		{name: "warm-standby", about: "a second replica that does not lead: 150 items wait, no worker, never reconciled", in: rest.with(healthyOperator("op-1", standby), inputs{
			series("workqueue_depth", `name="workload",controller="workload",`+standby, `priority="0"`):        gauge(150),
			series("workqueue_adds_total", `name="workload",controller="workload",`+standby):                   "0+60x3 180x127",
			series("controller_runtime_reconcile_total", `controller="workload",`+standby, `result="success"`): counter(0),
			series("leader_election_master_status", standby, `name="ctrldiag-demo"`):                           gauge(0),
		})},
		{name: "apf-throttled", about: "the API server answers 429 to 12 requests a minute and its priority level rejects them", fire: []string{"ServerThrottling", "PriorityLevelThrottling"},
			in: rest.with(inputs{
				series("rest_client_requests_total", op, `code="429",method="PUT",host="10.96.0.1"`):                                                           counter(12),
				series("apiserver_flowcontrol_rejected_requests_total", apisrv, `priority_level="ctrldiag",flow_schema="ctrldiag",reason="concurrency-limit"`): counter(12),
			})},
		{name: "apf-queued", about: "the requests of one FlowSchema wait 2s in its priority level's queues, 60 a minute; another FlowSchema's wait 1ms", fire: []string{"PriorityLevelThrottling", "FlowSchemaWaits"},
			in: rest.with(
				histogram("apiserver_flowcontrol_request_wait_duration_seconds", apisrv+`,priority_level="ctrldiag",flow_schema="ctrldiag",execute="true"`, obs{2, 60}),
				histogram("apiserver_flowcontrol_request_wait_duration_seconds", apisrv+`,priority_level="workload-low",flow_schema="service-accounts",execute="true"`, obs{0.001, 600}))},
		{name: "apiserver-slow-list", about: "the API server serves 60 LISTs of pods a minute in 2s; its GETs of secrets take 5ms, its WATCHes of pods last 60s", fire: []string{"APIServerSlowRequests"},
			in: rest.with(
				histogram("apiserver_request_duration_seconds", apisrv+`,verb="LIST",group="",resource="pods",subresource="",scope="cluster",component="apiserver"`, obs{2, 60}),
				histogram("apiserver_request_duration_seconds", apisrv+`,verb="GET",group="",resource="secrets",subresource="",scope="resource",component="apiserver"`, obs{0.005, 600}),
				histogram("apiserver_request_duration_seconds", apisrv+`,verb="WATCH",group="",resource="pods",subresource="",scope="cluster",component="apiserver"`, obs{60, 10}))},
		{name: "api-errors", about: "6 of 66 requests a minute fail with 500", fire: []string{"APIErrors"},
			in: rest.with(inputs{series("rest_client_requests_total", op, `code="500",method="GET",host="10.96.0.1"`): counter(6)})},
		{name: "webhook-slow", about: "30 of 60 admission requests a minute take 2s", fire: []string{"WebhookLatency"},
			in: rest.with(histogram("controller_runtime_webhook_latency_seconds", op+`,webhook="/validate-workload"`, obs{0.005, 30}, obs{2, 30}))},
		{name: "webhook-sure-from-buckets", about: "12 % of requests above 1s, a mean of 0.18s: p90 surely above 200ms", fire: []string{"WebhookLatency"},
			in: rest.with(histogram("controller_runtime_webhook_latency_seconds", op+`,webhook="/validate-workload"`, obs{0.001, 88}, obs{1.5, 12}))},
		{name: "webhook-interpolated-only", about: "15 % of requests at 0.5s: the interpolated p90 (0.4s) is above 200ms, but neither the buckets nor the mean (0.08s) say so", in: rest.with(
			histogram("controller_runtime_webhook_latency_seconds", op+`,webhook="/validate-workload"`, obs{0.005, 85}, obs{0.5, 15}))},
		{name: "slow", about: "reconciles of 3s, one worker of two busy", fire: []string{"SlowReconcile"},
			in: rest.with(inputs{series("controller_runtime_active_workers", c): gauge(1)}, histogram("workqueue_work_duration_seconds", q, obs{3, 20}))},
		{name: "backlog-draining", about: "300 items draining 1 a minute, a worker free, items served at once", fire: []string{"BacklogHigh"},
			in: rest.with(inputs{series("workqueue_depth", q, `priority="0"`): "300-1x130", series("controller_runtime_active_workers", c): gauge(1)})},
		{name: "backlog-rising", about: "the depth grows 2 a minute from 10, a worker free: growing, not deep", fire: []string{"BacklogGrowing"},
			in: rest.with(inputs{series("workqueue_depth", q, `priority="0"`): "10+2x130", series("controller_runtime_active_workers", c): gauge(1)})},
		{name: "panics-and-timeouts", about: "a reconcile panicked and one timed out at minute 26", at: "28m", fire: []string{"ReconcilePanics", "ReconcileTimeouts"},
			in: rest.with(inputs{
				series("controller_runtime_reconcile_panics_total", c):   "0x26 1x104",
				series("controller_runtime_reconcile_timeouts_total", c): "0x26 1x104",
			})},
		{name: "scrape-failed", about: "the operator's target is down since minute 20", fire: []string{"ScrapeFailed"},
			in: rest.with(inputs{series("up", op): "1x20 0x110", series("workqueue_adds_total", q): "0+60x20 stale"})},
		{name: "no-leader", about: "two replicas, neither leads", fire: []string{"NoLeader"},
			in: rest.with(inputs{
				series("leader_election_master_status", op, `name="ctrldiag-demo"`):      gauge(0),
				series("leader_election_master_status", standby, `name="ctrldiag-demo"`): gauge(0),
			})},
		{name: "two-leaders", about: "two replicas both lead", fire: []string{"SeveralLeaders"},
			in: rest.with(inputs{series("leader_election_master_status", standby, `name="ctrldiag-demo"`): gauge(1)})},
		{name: "kcm-retry-storm", about: "a kube-controller-manager queue retries 15 items a second of 20 adds", fire: []string{"QueueRetryStorm"},
			in: rest.with(inputs{
				series("workqueue_adds_total", kcmQ):    counter(1200),
				series("workqueue_retries_total", kcmQ): counter(900),
			})},
		{name: "slo-burn-only", about: "20% of the waits take 2s, the workers are not saturated: the queue-wait budget burns", fire: []string{"QueueWaitBudgetBurnFast", "QueueWaitBudgetBurnSlow"},
			in: rest.with(histogram("workqueue_queue_duration_seconds", q, obs{0.01, 96}, obs{2, 24}))},
		{name: "short-spike", about: "120 waits of 10ms a minute, and for the last 5 minutes 60 more of 2s: the 5m share burns, the 1h one does not, and the slow burn has not lasted 15m: silent",
			in: rest.with(spike())},
		{name: "start-up", about: "a process started at minute 25 with 300 objects that waited 5s each for the initial list, then 120 waits of 10ms a minute: the windows hold its start, silent",
			in: rest.with(startUp())},
		{name: "cert-manager-failing", about: "cert-manager's issuers controller: 3 syncs a minute, all failing (a CA Issuer without its Secret, backing off)", fire: []string{"PersistentFailures"},
			in: rest.with(inputs{
				series("certmanager_controller_sync_call_count", cm, `controller="issuers"`):  counter(3),
				series("certmanager_controller_sync_error_count", cm, `controller="issuers"`): counter(3),
			})},
		{name: "external-dns-failing", about: "external-dns, every minute: its attempts go on, none succeeds since minute 20", fire: []string{"NotSyncing"},
			in: rest.with(inputs{
				series("external_dns_controller_last_sync_timestamp_seconds", edns):      "0+60x20 1200x110",
				series("external_dns_controller_last_reconcile_timestamp_seconds", edns): "0+60x130",
			})},
		{name: "external-dns-hung", about: "external-dns, every minute until minute 20, then no attempt", at: "35m", fire: []string{"NotSyncing"},
			in: rest.with(inputs{
				series("external_dns_controller_last_sync_timestamp_seconds", edns):      "0+60x20 1200x110",
				series("external_dns_controller_last_reconcile_timestamp_seconds", edns): "0+60x20 1200x110",
			})},
		{name: "external-dns-never-ready", about: "external-dns whose sources never become ready: no attempt, no sync (it exits after a minute; Restarts tells)",
			in: rest.with(inputs{
				series("external_dns_controller_last_sync_timestamp_seconds", edns):      gauge(0),
				series("external_dns_controller_last_reconcile_timestamp_seconds", edns): gauge(0),
				series("process_start_time_seconds", edns):                               gauge(1500),
			})},
		{name: "kcm-saturated", about: "a kube-controller-manager queue (no worker metrics): items wait 5s for work of 10ms", fire: []string{"WorkersSaturated", "QueueWaitBudgetBurnFast", "QueueWaitBudgetBurnSlow"},
			in: rest.with(inputs{series("workqueue_depth", kcmQ): gauge(50)},
				histogram("workqueue_queue_duration_seconds", kcmQ, obs{5, 180}))},
	}
}

const firingQuery = `count by (alertname) (ALERTS{alertstate="firing"})`

// testFile writes the scenarios as a promtool unit test file over rules.yaml.
func testFile(scs []scenario) string {
	var b strings.Builder
	// Without group_eval_order promtool runs the groups in Go's map order: the alerts would now
	// and then read the records of the minute before.
	b.WriteString("rule_files: [rules.yaml]\nevaluation_interval: 1m\ngroup_eval_order: [ctrldiag.records, ctrldiag.alerts]\ntests:\n")
	for _, s := range scs {
		at := s.at
		if at == "" {
			at = "30m"
		}
		fmt.Fprintf(&b, "  # %s: %s\n  - name: %s\n    interval: 1m\n    input_series:\n%s", s.name, s.about, s.name, yamlInputs(s.in))
		if s.alertTest != "" {
			b.WriteString("    alert_rule_test:\n" + s.alertTest)
		}
		fmt.Fprintf(&b, "    promql_expr_test:\n      - expr: '%s'\n        eval_time: %s\n        exp_samples:", firingQuery, at)
		if len(s.fire) == 0 {
			b.WriteString(" []\n")
			continue
		}
		b.WriteString("\n")
		fire := append([]string(nil), s.fire...)
		sort.Strings(fire)
		for _, a := range fire {
			fmt.Fprintf(&b, "          - labels: '{alertname=\"%s%s\"}'\n            value: 1\n", Prefix, a)
		}
	}
	return b.String()
}

// TestScenariosFireExactlyTheirAlerts runs promtool test rules over every scenario: at its
// end exactly its alerts fire, each once, and none at rest.
func TestScenariosFireExactlyTheirAlerts(t *testing.T) {
	t.Parallel() // promtool works while the native-histogram test waits on its Prometheus
	dir := t.TempDir()
	var rules bytes.Buffer
	if err := Write(&rules, "yaml", mustBuild(t, DefaultOptions()), Meta{}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "rules.yaml"), rules.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "scenarios.yaml"), []byte(testFile(scenarios())), 0o644); err != nil {
		t.Fatal(err)
	}
	promtool(t, dir, "test", "rules", "scenarios.yaml")
}

// TestEveryAlertFiresAndStaysSilent holds the scenarios to the alerts: each alert fires in
// some scenario and stays silent in another.
func TestEveryAlertFiresAndStaysSilent(t *testing.T) {
	fires, silent := map[string]bool{}, map[string]bool{}
	scs := scenarios()
	for _, s := range scs {
		in := map[string]bool{}
		for _, a := range s.fire {
			in[Prefix+a] = true
		}
		for _, a := range mustBuild(t, DefaultOptions()).Alerts {
			if in[a.Name] {
				fires[a.Name] = true
			} else {
				silent[a.Name] = true
			}
			delete(in, a.Name)
		}
		for a := range in {
			t.Errorf("scenario %s expects %s, which is no alert", s.name, a)
		}
	}
	for _, a := range mustBuild(t, DefaultOptions()).Alerts {
		if !fires[a.Name] || !silent[a.Name] {
			t.Errorf("%s: fires in a scenario: %v, silent in one: %v; every alert needs both", a.Name, fires[a.Name], silent[a.Name])
		}
	}
}

// spike is the operator's queue waits: 120 of 10ms a minute throughout, and from minute 25
// another 60 a minute of 2s.
func spike() inputs {
	in := inputs{}
	both := "0+120x25 3180+180x104"
	for _, le := range workqueueBuckets {
		switch v := parseFloat(le); {
		case le == "+Inf" || v >= 2:
			in[series("workqueue_queue_duration_seconds_bucket", q, `le="`+le+`"`)] = both
		case v >= 0.01:
			in[series("workqueue_queue_duration_seconds_bucket", q, `le="`+le+`"`)] = "0+120x130"
		default:
			in[series("workqueue_queue_duration_seconds_bucket", q, `le="`+le+`"`)] = "0x130"
		}
	}
	in[series("workqueue_queue_duration_seconds_sum", q)] = "0+1.2x25 151.2+121.2x104"
	in[series("workqueue_queue_duration_seconds_count", q)] = both
	return in
}

// startUp is the operator's queue waits after its process started at minute 25: the initial
// list's 300 waits of 5s in its first minute, then 120 of 10ms a minute.
func startUp() inputs {
	in := inputs{series("process_start_time_seconds", op): "_x25 1500x104"}
	for _, le := range workqueueBuckets {
		values := "_x25 0x104"
		switch v := parseFloat(le); {
		case le == "+Inf" || v >= 5:
			values = "_x25 0 420+120x103"
		case v >= 0.01:
			values = "_x25 0 120+120x103"
		}
		in[series("workqueue_queue_duration_seconds_bucket", q, `le="`+le+`"`)] = values
	}
	in[series("workqueue_queue_duration_seconds_sum", q)] = "_x25 0 1501.2+1.2x103"
	in[series("workqueue_queue_duration_seconds_count", q)] = "_x25 0 420+120x103"
	return in
}
