package alerts

import (
	"math"
	"strings"
)

// The joins of the rules. A target is (job, instance): every scraped series has both. A
// queue is its workqueue name on a target; controller-runtime names the queue after the
// controller, and the recorded controller series carry that name too (copied from the
// controller label), so queue and controller figures join on (job, instance, name), also on
// workqueues older than controller-runtime 0.19 that have no controller label.
const (
	onQueue  = "on (job, instance, name)"
	onTarget = "on (job, instance)"
)

// The recorded series. Names follow Prometheus' level:metric:operations; WIN stands for the
// window ("5m").
const (
	recDepth         = "workqueue_depth:sum"
	recDepthChange   = "workqueue_depth:changeWIN"
	recDepthLow      = "workqueue_depth_low_priority:sum"
	recDepthHigh     = "workqueue_depth_high_priority:sum"
	recQueueP99      = "workqueue_queue_duration_seconds:p99_WIN"
	recQueueMean     = "workqueue_queue_duration_seconds:mean_WIN"
	recWorkP99       = "workqueue_work_duration_seconds:p99_WIN"
	recWorkP50       = "workqueue_work_duration_seconds:p50_WIN"
	recCompletions   = "workqueue_completions:rateWIN"
	recQueued        = "workqueue_waits:increaseWIN"
	recAdds          = "workqueue_adds:increaseWIN"
	recRetries       = "workqueue_retries:rateWIN"
	recRetriesPerAdd = "workqueue_retries_per_add:ratio_WIN"
	recSaturation    = "controller_workers:saturation"
	recReconciles    = "controller_reconciles:increaseWIN"
	recReconcileRate = "controller_reconciles:rateWIN"
	recErrors        = "controller_reconcile_errors:increaseWIN"
	recErrorRate     = "controller_reconcile_errors:rateWIN"
	recErrorRatio    = "controller_reconcile_errors:ratio_WIN"
	recRequeueRatio  = "controller_requeues:ratio_WIN"
	recStandby       = "controller_warm_standby:bool"
	recLimiterWait   = "rest_client_rate_limiter_wait_seconds:mean_WIN"
	recLimited       = "rest_client_rate_limited_requests:increaseWIN"
	recRequests      = "rest_client_requests:increaseWIN"
	recFailedRatio   = "rest_client_failed_requests:ratio_WIN"
	recThrottled     = "rest_client_throttled_requests:increaseWIN"
	recAPFRejected   = "apiserver_flowcontrol_rejected_requests:increaseWIN"
	recAPFWaitP99    = "apiserver_flowcontrol_request_wait_duration_seconds:p99_WIN"
	recAPFWaits      = "apiserver_flowcontrol_waited_requests:increaseWIN"
	recFSWaitP99     = "apiserver_flowcontrol_flow_schema_wait_duration_seconds:p99_WIN"
	recFSWaits       = "apiserver_flowcontrol_flow_schema_waited_requests:increaseWIN"
	recAPIReqP99     = "apiserver_request_duration_seconds:p99_WIN"
	recAPIReqs       = "apiserver_requests_timed:increaseWIN"
	recInformerP99   = "informer_processing_latency_seconds:p99_WIN"
	recWebhookP90    = "controller_runtime_webhook_latency_seconds:p90_WIN"
	recWebhookMean   = "controller_runtime_webhook_latency_seconds:mean_WIN"
	recWebhookReqs   = "controller_runtime_webhook_requests:increaseWIN"
	recWebhookFast   = "controller_runtime_webhook_requests_within_threshold_bucket:ratio_WIN"
	recMemoryOfLimit = "process_resident_memory_of_limit:ratio"
	// The queue-wait objective: the share of waits surely over it, and the waits, over the
	// burn windows (sloWindows), whatever --window is.
	recWaitOverSLO    = "workqueue_queue_wait_over_slo:ratio_WIN"
	recWaits          = "workqueue_queue_waits:increaseWIN"
	memoryLimitSeries = `kube_pod_container_resource_limits{resource="memory"}`
)

// r is a recorded series as the alerts read it, with the selector's matchers.
func (b *builder) r(name string) string { return b.sel(b.rec(name)) }

// records are the recording rules: the figures the alerts share, each computed once.
func (b *builder) records() []Rule {
	th := b.o.Thresholds
	inc := func(metric string, own ...string) string { return "increase(" + b.rng(metric, own...) + ")" }
	rate := func(metric string, own ...string) string { return "rate(" + b.rng(metric, own...) + ")" }
	// A histogram is read from its classic series (_bucket, _sum, _count) or, where a target
	// exports it native only, from the native histogram: each figure is the classic form `or`
	// the native one, so a series that has both keeps the classic reading.
	quantile := func(q, metric, without string) string {
		classic, native := rate(metric+"_bucket"), rate(metric)
		if without != "" {
			classic, native = "sum without ("+without+") ("+classic+")", "sum without ("+without+") ("+native+")"
		}
		return "histogram_quantile(" + q + ", " + classic + ")\n  or\nhistogram_quantile(" + q + ", " + native + ")"
	}
	// count and sum are a histogram's observations and their sum over the window, by fn
	// (rate or increase).
	count := func(fn func(string, ...string) string, metric string) string {
		return "(" + fn(metric+"_count") + " or histogram_count(" + fn(metric) + "))"
	}
	sum := func(fn func(string, ...string) string, metric string) string {
		return "(" + fn(metric+"_sum") + " or histogram_sum(" + fn(metric) + "))"
	}
	mean := func(metric, without string) string {
		s, c := sum(inc, metric), count(inc, metric)
		if without != "" {
			s, c = "sum without ("+without+") "+s, "sum without ("+without+") "+c
		}
		return s + "\n  /\n(" + c + " > 0)"
	}
	named := func(expr string) string { // a controller series gets the name of its queue
		return `label_replace(` + expr + `, "name", "$1", "controller", "(.+)")`
	}
	depth := b.sel("workqueue_depth")
	rules := []Rule{
		// Depth is a gauge: summed over priority (controller-runtime's priority queue has a
		// series per priority), compared with itself a window ago; never rate() of it.
		{Record: recDepth, Expr: "sum without (priority) (" + depth + ")"},
		{Record: recDepthChange, Expr: "sum without (priority) (" + depth + ")\n  -\nsum without (priority) (" + depth + " offset " + b.w + ")"},
		// controller-runtime's priority queue: the initial list and unchanged resyncs enter at
		// -100, events at 0.
		{Record: recDepthLow, Expr: "sum without (priority) (" + b.sel("workqueue_depth", `priority="-100"`) + ")"},
		{Record: recDepthHigh, Expr: "sum without (priority) (" + b.sel("workqueue_depth", `priority!~"|-100"`) + ")"},
		{Record: recQueueP99, Expr: quantile("0.99", "workqueue_queue_duration_seconds", "")},
		{Record: recQueueMean, Expr: mean("workqueue_queue_duration_seconds", "")},
		{Record: recWorkP99, Expr: quantile("0.99", "workqueue_work_duration_seconds", "")},
		{Record: recWorkP50, Expr: quantile("0.5", "workqueue_work_duration_seconds", "")},
		{Record: recCompletions, Expr: count(rate, "workqueue_work_duration_seconds")},
		// The waits a queue p99 rests on: too few, and it says too little to alert on.
		{Record: recQueued, Expr: count(inc, "workqueue_queue_duration_seconds")},
		{Record: recAdds, Expr: inc("workqueue_adds_total")},
		{Record: recRetries, Expr: rate("workqueue_retries_total")},
		{Record: recRetriesPerAdd, Expr: inc("workqueue_retries_total") + "\n  /\n(" + inc("workqueue_adds_total") + " > 0)"},
		{Record: recSaturation, Expr: named(b.sel("controller_runtime_active_workers") + " / (" + b.sel("controller_runtime_max_concurrent_reconciles") + " > 0)")},
		// cert-manager counts its controllers' syncs and failed syncs instead (no queue figures):
		// the same reconciles to the failure checks.
		{Record: recReconciles, Expr: named("sum without (result) (" + inc("controller_runtime_reconcile_total") + ")\n  or\n" + inc(cmSyncCalls))},
		{Record: recReconcileRate, Expr: named("sum without (result) (" + rate("controller_runtime_reconcile_total") + ")\n  or\n" + rate(cmSyncCalls))},
		{Record: recErrors, Expr: named(inc("controller_runtime_reconcile_errors_total") + "\n  or\n" + inc(cmSyncErrors))},
		{Record: recErrorRate, Expr: named(rate("controller_runtime_reconcile_errors_total") + "\n  or\n" + rate(cmSyncErrors))},
		{Record: recErrorRatio, Expr: b.r(recErrors) + "\n  /\n(" + b.r(recReconciles) + " > 0)"},
		{Record: recRequeueRatio, Expr: named("sum without (result) ("+inc("controller_runtime_reconcile_total", `result=~"requeue|requeue_after"`)+")") +
			"\n  /\n(" + b.r(recReconciles) + " > 0)"},
		// A warm standby (controller-runtime warm replicas): no worker active, never
		// reconciled, on a target that does not lead. Its queue fills while it waits: no backlog.
		{Record: recStandby, Expr: named("("+b.sel("controller_runtime_active_workers")+" == 0)\n  and on (job, instance, controller)\n(sum without (result) ("+
			b.sel("controller_runtime_reconcile_total")+") == 0)") + "\n  unless " + onTarget + "\n(" + b.sel("leader_election_master_status") + " == 1)"},
		{Record: recLimiterWait, Expr: mean("rest_client_rate_limiter_duration_seconds", "verb, host")},
		{Record: recLimited, Expr: "sum without (verb, host) " + count(inc, "rest_client_rate_limiter_duration_seconds")},
		{Record: recRequests, Expr: "sum without (code, method, host) (" + inc("rest_client_requests_total") + ")"},
		// 5xx and transport errors; 429s are the server's flow control, judged apart.
		{Record: recFailedRatio, Expr: "sum without (code, method, host) (" + inc("rest_client_requests_total", `code=~"5..|<error>"`) + ")\n  /\n(" + b.r(recRequests) + " > 0)"},
		{Record: recThrottled, Expr: "sum without (code, method, host) (" + inc("rest_client_requests_total", `code="429"`) + ")"},
		{Record: recAPFRejected, Expr: "sum without (flow_schema, reason) (" + inc("apiserver_flowcontrol_rejected_requests_total") + ")"},
		{Record: recAPFWaitP99, Expr: quantile("0.99", "apiserver_flowcontrol_request_wait_duration_seconds", "flow_schema, execute")},
		{Record: recAPFWaits, Expr: "sum without (flow_schema, execute) " + count(inc, "apiserver_flowcontrol_request_wait_duration_seconds")},
		// The same per FlowSchema: which FlowSchema classifies a controller is in the
		// FlowSchemas' rules, an API object, but each FlowSchema's waits are a series.
		{Record: recFSWaitP99, Expr: quantile("0.99", "apiserver_flowcontrol_request_wait_duration_seconds", "execute")},
		{Record: recFSWaits, Expr: "sum without (execute) " + count(inc, "apiserver_flowcontrol_request_wait_duration_seconds")},
		// The API server's latency by verb and resource; WATCH, WATCHLIST and CONNECT last as
		// long as their stream and are left out.
		{Record: recAPIReqP99, Expr: "histogram_quantile(0.99, sum by (job, instance, verb, group, resource, subresource, le) (" +
			rate("apiserver_request_duration_seconds_bucket", `verb!~"WATCH|WATCHLIST|CONNECT"`) + "))\n  or\nhistogram_quantile(0.99, sum by (job, instance, verb, group, resource, subresource) (" +
			rate("apiserver_request_duration_seconds", `verb!~"WATCH|WATCHLIST|CONNECT"`) + "))"},
		{Record: recAPIReqs, Expr: "sum by (job, instance, verb, group, resource, subresource) (" + inc("apiserver_request_duration_seconds_count", `verb!~"WATCH|WATCHLIST|CONNECT"`) +
			")\n  or\nsum by (job, instance, verb, group, resource, subresource) (histogram_count(" + inc("apiserver_request_duration_seconds", `verb!~"WATCH|WATCHLIST|CONNECT"`) + "))"},
		{Record: recInformerP99, Expr: quantile("0.99", "informer_processing_latency_seconds", "")},
		{Record: recWebhookP90, Expr: quantile("0.9", "controller_runtime_webhook_latency_seconds", "")},
		{Record: recWebhookMean, Expr: mean("controller_runtime_webhook_latency_seconds", "")},
		{Record: recWebhookReqs, Expr: count(inc, "controller_runtime_webhook_latency_seconds")},
		// The share of requests within the first bucket bound at or above the threshold (the
		// buckets are a factor of 10 apart): under 90 %, the p90 lies surely in a bucket
		// that starts at or above the threshold. A native histogram, whose buckets are
		// finer, gives the share under the threshold itself.
		{Record: recWebhookFast, Expr: "sum without (le) (" + rate("controller_runtime_webhook_latency_seconds_bucket", `le=~"`+bucketAtOrAbove(th.WebhookLatency.Seconds())+`"`) + ")\n  /\n" +
			"(" + rate("controller_runtime_webhook_latency_seconds_count") + " > 0)\n  or\n" +
			"histogram_fraction(0, " + num(th.WebhookLatency.Seconds()) + ", " + rate("controller_runtime_webhook_latency_seconds") + ")"},
		// The container that serves the metrics against its memory limit (kube-state-metrics):
		// the target's namespace, pod and container labels, as the Prometheus Operator sets them.
		{Record: recMemoryOfLimit, Expr: b.sel("process_resident_memory_bytes") + "\n  / on (namespace, pod, container) group_left ()\nmax by (namespace, pod, container) (" + memoryLimitSeries + " > 0)"},
	}
	for i := range rules {
		rules[i].Record = b.rec(rules[i].Record)
	}
	return append(rules, b.sloRecords()...)
}

// sloWindows are the burn-rate windows of the queue-wait objective (the SRE workbook's
// multiwindow alerts: 1h and 5m fast, 6h and 30m slow).
var sloWindows = []string{"5m", "30m", "1h", "6h"}

// recAt is the name of a recorded series over a fixed window win.
func (b *builder) recAt(name, win string) string {
	return RecordPrefix + strings.ReplaceAll(name, "WIN", win)
}

// sloRecords are the queue-wait objective's series over each burn window: the share of waits
// surely over targetQueueWait (above the bucket at or over it, as the report's verdict
// counts them; a native histogram's finer buckets at the objective itself), and, over the
// long windows, how many waits there were.
func (b *builder) sloRecords() []Rule {
	th := b.o.Thresholds
	target := th.TargetQueueWait.Seconds()
	var out []Rule
	for _, win := range sloWindows {
		rate := func(metric string, own ...string) string { return "rate(" + b.sel(metric, own...) + "[" + win + "])" }
		out = append(out, Rule{Record: b.recAt(recWaitOverSLO, win), Expr: "1 - (\n  sum without (le) (" +
			rate("workqueue_queue_duration_seconds_bucket", `le=~"`+bucketAtOrAbove(target)+`"`) + ")\n    /\n  (" +
			rate("workqueue_queue_duration_seconds_count") + " > 0)\n    or\n  histogram_fraction(0, " + num(target) + ", " +
			rate("workqueue_queue_duration_seconds") + ")\n)"})
	}
	for _, win := range []string{"1h", "6h"} {
		inc := func(metric string) string { return "increase(" + b.sel(metric) + "[" + win + "])" }
		out = append(out, Rule{Record: b.recAt(recWaits, win), Expr: "(" + inc("workqueue_queue_duration_seconds_count") +
			" or histogram_count(" + inc("workqueue_queue_duration_seconds") + "))"})
	}
	return out
}

// bucketAtOrAbove is a regular expression for the le label of the smallest power of ten at
// or above v, a bucket bound of controller-runtime's webhook histogram, both ways Prometheus
// writes it ("1", and "1.0" since Prometheus 3).
func bucketAtOrAbove(v float64) string {
	e := math.Ceil(math.Log10(v))
	p := math.Pow(10, e)
	switch {
	case p < v: // Log10 rounded below a power of ten
		p = math.Pow(10, e+1)
	case math.Pow(10, e-1) >= v:
		p = math.Pow(10, e-1)
	}
	s := num(p)
	re := strings.ReplaceAll(s, ".", `\\.`)
	if !strings.ContainsAny(s, ".e") {
		re += `(\\.0)?`
	}
	return re
}

// cert-manager's sync counters (github.com/cert-manager/cert-manager/pkg/metrics).
const (
	cmSyncCalls  = "certmanager_controller_sync_call_count"
	cmSyncErrors = "certmanager_controller_sync_error_count"
)
