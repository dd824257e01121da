package alerts

import (
	"fmt"
	"sort"
	"strings"
)

// samples is how many one-minute steps every input series of the scenarios runs.
const samples = 130

// The targets of the scenarios, as the Prometheus Operator labels them.
const (
	op      = `job="op",instance="10.0.0.1:8080",namespace="demo",pod="op-0",container="manager"`
	standby = `job="op",instance="10.0.0.2:8080",namespace="demo",pod="op-1",container="manager"`
	kcm     = `job="kcm",instance="198.18.0.1:10257",namespace="kube-system",pod="kube-controller-manager-node",container="kube-controller-manager"`
	apisrv  = `job="apiserver",instance="198.18.0.1:6443"`
	ksm     = `job="kube-state-metrics",instance="10.0.0.50:8080"`
	cm      = `job="cert-manager",instance="10.0.0.8:9402",namespace="cert-manager",pod="cert-manager-0",container="cert-manager-controller"`
	edns    = `job="external-dns",instance="10.0.0.7:7979",namespace="dns",pod="external-dns-0",container="external-dns"`
)

// everyFiveMinutes is a timestamp gauge of something done every 5 minutes since time 0: at
// minute m, the start of the last 5-minute mark, in seconds.
func everyFiveMinutes() string {
	v := make([]string, samples+1)
	for m := range v {
		v[m] = fmt.Sprint(m / 5 * 300)
	}
	return strings.Join(v, " ")
}

// inputs are series (name{labels}) and their values in promtool's notation.
type inputs map[string]string

func (in inputs) with(more ...inputs) inputs {
	out := inputs{}
	for k, v := range in {
		out[k] = v
	}
	for _, m := range more {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

func series(metric, labels string, more ...string) string {
	return metric + "{" + strings.Join(append(more, labels), ",") + "}"
}

// counter grows by perMin every minute; gauge holds v.
func counter(perMin float64) string { return fmt.Sprintf("0+%gx%d", perMin, samples) }
func gauge(v float64) string        { return fmt.Sprintf("%gx%d", v, samples) }

// obs is perMin observations a minute of value v.
type obs struct{ v, perMin float64 }

// workqueueBuckets are bounds of client-go's and controller-runtime's workqueue histograms
// (and of the webhook and informer ones: powers of ten).
var workqueueBuckets = []string{"0.0001", "0.001", "0.01", "0.1", "1", "10", "100", "1000", "+Inf"}

// histogram is a classic histogram fed by the observations.
func histogram(metric, labels string, os ...obs) inputs {
	in := inputs{}
	var sum, count float64
	for _, o := range os {
		sum += o.v * o.perMin
		count += o.perMin
	}
	for _, le := range workqueueBuckets {
		var c float64
		for _, o := range os {
			if le == "+Inf" || o.v <= parseFloat(le) {
				c += o.perMin
			}
		}
		in[series(metric+"_bucket", labels, `le="`+le+`"`)] = counter(c)
	}
	in[series(metric+"_sum", labels)] = counter(sum)
	in[series(metric+"_count", labels)] = counter(count)
	return in
}

func parseFloat(s string) float64 {
	var v float64
	fmt.Sscanf(s, "%g", &v)
	return v
}

// Queue and controller label sets of the reference operator's controller.
var (
	q    = `name="workload",controller="workload",` + op
	c    = `controller="workload",` + op
	kcmQ = `name="garbage_collector",` + kcm
)

// healthyOperator is the reference operator's healthy scenario: a controller-runtime
// controller that reconciles an object a second in half a millisecond, with a webhook, named
// informers, a leader lease, and its pod seen by kube-state-metrics.
func healthyOperator(pod, labels string) inputs {
	q := `name="workload",controller="workload",` + labels
	c := `controller="workload",` + labels
	in := inputs{
		series("up", labels):                                                                                                                  gauge(1),
		series("workqueue_depth", q, `priority="0"`):                                                                                          gauge(0),
		series("workqueue_adds_total", q):                                                                                                     counter(60),
		series("workqueue_retries_total", q):                                                                                                  counter(0),
		series("workqueue_longest_running_processor_seconds", q):                                                                              gauge(0),
		series("workqueue_unfinished_work_seconds", q):                                                                                        gauge(0),
		series("controller_runtime_reconcile_total", c, `result="success"`):                                                                   counter(60),
		series("controller_runtime_reconcile_total", c, `result="error"`):                                                                     counter(0),
		series("controller_runtime_reconcile_total", c, `result="requeue"`):                                                                   counter(0),
		series("controller_runtime_reconcile_total", c, `result="requeue_after"`):                                                             counter(0),
		series("controller_runtime_reconcile_errors_total", c):                                                                                counter(0),
		series("controller_runtime_reconcile_panics_total", c):                                                                                counter(0),
		series("controller_runtime_reconcile_timeouts_total", c):                                                                              counter(0),
		series("controller_runtime_active_workers", c):                                                                                        gauge(0),
		series("controller_runtime_max_concurrent_reconciles", c):                                                                             gauge(2),
		series("leader_election_master_status", labels, `name="ctrldiag-demo"`):                                                               gauge(1),
		series("rest_client_requests_total", labels, `code="200",method="GET",host="10.96.0.1"`):                                              counter(60),
		series("rest_client_rate_limiter_duration_seconds_sum", labels, `verb="GET",host="10.96.0.1"`):                                        counter(0.006),
		series("rest_client_rate_limiter_duration_seconds_count", labels, `verb="GET",host="10.96.0.1"`):                                      counter(60),
		series("process_resident_memory_bytes", labels):                                                                                       gauge(50e6),
		series("informer_queued_items", labels, `name="workload",group="demo.ctrldiag.dev",version="v1alpha1",resource="workloads"`):          gauge(0),
		series("kube_pod_container_resource_limits", ksm, `namespace="demo",pod="`+pod+`",container="manager",resource="memory",unit="byte"`): gauge(157286400),
		series("kube_pod_container_status_restarts_total", ksm, `namespace="demo",pod="`+pod+`",container="manager"`):                         gauge(0),
	}
	return in.with(
		histogram("workqueue_queue_duration_seconds", q, obs{0.0005, 60}),
		histogram("workqueue_work_duration_seconds", q, obs{0.0005, 60}),
		histogram("informer_processing_latency_seconds", labels+`,name="workload",group="demo.ctrldiag.dev",version="v1alpha1",resource="workloads"`, obs{0.0005, 60}),
		histogram("controller_runtime_webhook_latency_seconds", labels+`,webhook="/validate-workload"`, obs{0.005, 60}))
}

// atRest is what Prometheus scrapes at rest: the healthy operator, kube-controller-manager
// with the periodic requeues of an idle cluster (retries 3/s, as many as the adds), an idle
// API server, and a target that is down but no controller (a database).
func atRest() inputs {
	return healthyOperator("op-0", op).with(inputs{
		series("up", kcm):                                           gauge(1),
		series("workqueue_depth", kcmQ):                             gauge(0),
		series("workqueue_adds_total", kcmQ):                        counter(180),
		series("workqueue_retries_total", kcmQ):                     counter(180),
		series("workqueue_longest_running_processor_seconds", kcmQ): gauge(0),
		series("up", apisrv):                                        gauge(1),
		series("up", `job="db",instance="10.0.0.9:5432"`):           gauge(0),
		// cert-manager's controllers syncing without a failure (no error series yet).
		series("certmanager_controller_sync_call_count", cm, `controller="issuers"`):                counter(2),
		series("certmanager_controller_sync_call_count", cm, `controller="certificates-readiness"`): counter(6),
		// external-dns syncing every 5 minutes, scraped every minute.
		series("external_dns_controller_last_sync_timestamp_seconds", edns):      everyFiveMinutes(),
		series("external_dns_controller_last_reconcile_timestamp_seconds", edns): everyFiveMinutes(),
		series("process_start_time_seconds", edns):                               gauge(0),
	},
		histogram("workqueue_queue_duration_seconds", kcmQ, obs{0.00001, 180}),
		histogram("workqueue_work_duration_seconds", kcmQ, obs{0.002, 180}),
		histogram("apiserver_flowcontrol_request_wait_duration_seconds", apisrv+`,priority_level="workload-low",flow_schema="service-accounts",execute="true"`, obs{0.00001, 600}))
}

// yamlInputs writes the input series of a test group, sorted.
func yamlInputs(in inputs) string {
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "      - series: '%s'\n        values: '%s'\n", k, in[k])
	}
	return b.String()
}
