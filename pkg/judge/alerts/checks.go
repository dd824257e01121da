package alerts

import (
	"fmt"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
)

// alertDef is one alerting rule before the options' --for and the catalog are applied.
type alertDef struct {
	name, check string
	// severity is the alert's own where its case differs from the catalog's: one of
	// pkg/judge/findings' escalations, or info where the rule cannot read what makes the report's
	// finding a warning; "" keeps the catalog's.
	severity findings.Severity
	forDur   time.Duration
	over     string // "" is the controller's own metrics
	logic    string
	differs  string
	expr     string
	summary  string
	desc     string
}

// The labels that identify what an alert is about, as annotations write them.
const (
	who   = `{{ with $labels.namespace }}{{ . }}/{{ end }}{{ with $labels.pod }}{{ . }}{{ else }}{{ $labels.instance }}{{ end }}`
	queue = `queue {{ $labels.name }} of ` + who
	ctrl  = `controller {{ $labels.controller }} of ` + who
)

const overKSM = "kube-state-metrics"

// alerts are the alerting rules, one or more per exportable check, in catalog order. Each
// expression follows the check's rule in pkg/judge/findings, over the window instead of the two
// samples, with the same thresholds.
func (b *builder) alerts() []alertDef {
	th := b.o.Thresholds
	w, win := b.w, b.o.Window
	since := promDuration(time.Duration(th.Since))
	and, unless := "\n  and "+onQueue+"\n", "\n  unless "+onQueue+"\n"
	depth, change := b.r(recDepth), b.r(recDepthChange)
	queueP99, workP99 := b.r(recQueueP99), b.r(recWorkP99)
	sat, standby := b.r(recSaturation), unless+b.r(recStandby)
	longest := b.sel("workqueue_longest_running_processor_seconds")
	low, high := b.r(recDepthLow), b.r(recDepthHigh)
	reconciles, errRatio := b.r(recReconciles), b.r(recErrorRatio)

	stuck := longest + " >= " + secs(time.Duration(th.StuckAfter)) +
		"\n  and\n(" + longest + " offset " + w + ") >= " + secs(time.Duration(th.StuckAfter)) +
		"\n  and\n(" + longest + " - " + longest + " offset " + w + ") >= " + secs(win/2)
	starved := low + and + "(" + low + " offset " + w + " > 0)" + and + "(" + low + " >= " + low + " offset " + w + ")" +
		and + "((" + high + " - " + high + " offset " + w + ") < " + num(th.RisingDepth) + ")" +
		and + "((" + high + " > 0 and " + high + " offset " + w + " > 0) or " + queueP99 + " >= " + secs(time.Duration(th.SaturatedQueueWait)) + ")" +
		and + "(" + sat + " >= 1)" + and + "(" + b.r(recCompletions) + " > 0)"
	// A wait p99 counts only over minEvents waits or more (a few waits say too little).
	waited := "(" + queueP99 + " >= " + secs(time.Duration(th.SaturatedQueueWait)) + and + b.r(recQueued) + " >= " + num(th.MinEvents) + ")"
	// A backlog of risingDepth or more at both ends of the window held through it.
	standing := "(" + depth + " >= " + num(th.RisingDepth) + and + depth + " offset " + w + " >= " + num(th.RisingDepth) + ")"
	// Items waited at both ends of the window and none left the queue: every one waited it all.
	unserved := "(" + depth + " offset " + w + " > 0" + and + b.r(recQueued) + " == 0)"
	saturated := "(\n  (" + depth + " > 0)" + and + "(" + sat + " >= 1)" + and + "(" + waited +
		" or " + change + " >= " + num(th.RisingDepth) + " or " + standing + " or " + unserved + ")\nor\n  (" + depth + " > 0)" + and + waited +
		and + "(" + queueP99 + " > " + onQueue + " " + workP99 + ")" + unless + sat + "\n)" + unless + "(" + starved + ")" + standby
	storm := "(" + errRatio + " > " + num(th.ErrorRatio) + ")" + and + "(" + reconciles + " >= " + num(th.MinEvents) + ")" +
		and + "(" + b.r(recErrorRate) + " >= " + num(th.RetryStormRate) + ")"
	onTgt := "\n  and " + onTarget + "\n"
	up := b.sel("up")

	return []alertDef{
		{name: "ScrapeFailed", check: "scrape-failed", forDur: 5 * time.Minute,
			logic:   fmt.Sprintf("the target is down (up == 0) and served workqueue or controller-runtime series within since (%s)", since),
			differs: "a controller target never scraped successfully is unknown to the rules",
			expr: up + " == 0" + onTgt + "(\n  count by (job, instance) (last_over_time(" + b.sel("workqueue_adds_total") + "[" + since + "]))\n  or\n  count by (job, instance) (last_over_time(" +
				b.sel("controller_runtime_reconcile_total") + "[" + since + "]))\n)",
			summary: "The metrics of controller " + who + " cannot be scraped",
			desc:    "Prometheus cannot read the metrics of " + who + " (job {{ $labels.job }}), a controller that served workqueue metrics within the last " + since + ": nothing can be said about its health."},
		{name: "WorkerStuck", check: "stuck-worker", forDur: time.Minute,
			logic:   fmt.Sprintf("the longest running item is at least stuckAfter (%s) old now and was a window (%s) ago, and grew by half the window since: the same item, still in work", th.StuckAfter, w),
			expr:    stuck,
			summary: "A worker of " + queue + " is stuck",
			desc:    "An item of " + queue + " has been in a worker for {{ $value | humanizeDuration }} (stuckAfter " + th.StuckAfter.String() + ", already " + w + " ago): a reconcile blocks and that worker does nothing else."},
		{name: "ReconcilePanics", check: "reconcile-panics",
			logic:   fmt.Sprintf("controller_runtime_reconcile_panics_total rose over the window (%s)", w),
			expr:    "increase(" + b.rng("controller_runtime_reconcile_panics_total") + ") > 0",
			summary: "Reconciles of " + ctrl + " panic",
			desc:    "Reconciles of " + ctrl + " panicked {{ $value | humanize }} times in the last " + w + "; they are recovered and retried with back-off."},
		{name: "RetryStorm", check: "retry-storm", forDur: 5 * time.Minute,
			logic:   fmt.Sprintf("over errorRatio (%s) of at least minEvents (%s) reconciles in the window fail, at retryStormRate (%s/s) or more", num(th.ErrorRatio), num(th.MinEvents), num(th.RetryStormRate)),
			expr:    storm,
			summary: "Retry storm in " + ctrl,
			desc:    "{{ $value | humanizePercentage }} of the reconciles of " + ctrl + " failed in the last " + w + ", at " + num(th.RetryStormRate) + "/s or more: a load on the API server (errorRatio " + num(th.ErrorRatio) + ")."},
		{name: "QueueRetryStorm", check: "retry-storm", severity: findings.Info, forDur: 5 * time.Minute,
			logic:   fmt.Sprintf("on a queue without reconcile metrics: retries >= retriesPerSecond (%s/s) and >= retryRatio (%s) of the adds, over at least minEvents (%s) adds", num(th.RetriesPerSecond), num(th.RetryRatio), num(th.MinEvents)),
			differs: "retries count periodic requeues (AddAfter) too: the report warns only when Warning events or the log name failures of the queue, which the rules cannot read, so the alert is info",
			expr: b.r(recRetries) + " >= " + num(th.RetriesPerSecond) + and + "(" + b.r(recRetriesPerAdd) + " >= " + num(th.RetryRatio) + ")" + and + "(" + b.r(recAdds) + " >= " + num(th.MinEvents) + ")" +
				unless + reconciles,
			summary: "Retry storm in " + queue,
			desc:    queue + " retries {{ $value | humanize }} items a second, at least " + num(th.RetryRatio) + " per add, in the last " + w + "."},
		{name: "HotLoop", check: "hot-loop", forDur: 10 * time.Minute,
			logic:   fmt.Sprintf("at least hotLoopRate (%s) reconciles/s, hotLoopRequeueRatio (%s) of them requeues, work p50 not above hotLoopWork (%s), no more than errorRatio failing, over at least minEvents reconciles", num(th.HotLoopRate), num(th.HotLoopRequeueRatio), th.HotLoopWork),
			differs: fmt.Sprintf("the report, having counted the objects, judges reconciles per object (hotLoopObjectRate %s/s) instead; the rules cannot count objects", num(th.HotLoopObjectRate)),
			expr: b.r(recReconcileRate) + " >= " + num(th.HotLoopRate) + and + "(" + reconciles + " >= " + num(th.MinEvents) + ")" + and + "(" + b.r(recRequeueRatio) + " >= " + num(th.HotLoopRequeueRatio) + ")" +
				unless + "(" + errRatio + " > " + num(th.ErrorRatio) + ")" + unless + "(" + b.r(recWorkP50) + " > " + secs(time.Duration(th.HotLoopWork)) + ")",
			summary: "Hot loop in " + ctrl,
			desc:    ctrl + " reconciles {{ $value | humanize }} times a second, mostly requeues, with almost no work each (p50 <= " + th.HotLoopWork.String() + ")."},
		{name: "ClientThrottling", check: "client-throttling", forDur: 10 * time.Minute,
			logic:   fmt.Sprintf("mean wait in the client rate limiter >= throttleWait (%s) over at least throttleMinRequests (%s) requests in the window", th.ThrottleWait, num(th.ThrottleMinRequests)),
			expr:    b.r(recLimiterWait) + " >= " + secs(time.Duration(th.ThrottleWait)) + onTgt + "(" + b.r(recLimited) + " >= " + num(th.ThrottleMinRequests) + ")",
			summary: "The API client of " + who + " throttles itself",
			desc:    "Requests of " + who + " wait {{ $value | humanizeDuration }} on average in the client's own rate limiter (throttleWait " + th.ThrottleWait.String() + "): raise QPS/Burst."},
		{name: "CacheSyncLag", check: "cache-sync-lag", forDur: 10 * time.Minute,
			logic:   fmt.Sprintf("an informer has >= informerQueuedItems (%s) events waiting, or handler p99 >= informerLatency (%s) over the window", num(th.InformerQueuedItems), th.InformerLatency),
			differs: "the report also compares the informer's resource version with the API server's watch cache and reads generation lag from the objects",
			expr: b.sel("informer_queued_items") + " >= " + num(th.InformerQueuedItems) + "\n  or on (job, instance, name, group, version, resource)\n" +
				b.r(recInformerP99) + " >= " + secs(time.Duration(th.InformerLatency)),
			summary: "Informer {{ $labels.name }} ({{ $labels.resource }}) of " + who + " lags",
			desc:    "Informer {{ $labels.name }} ({{ $labels.resource }}) of " + who + " is behind: {{ $value | humanize }} (events waiting >= " + num(th.InformerQueuedItems) + ", or handler p99 >= " + th.InformerLatency.String() + " in seconds)."},
		{name: "MemoryPressure", check: "memory-pressure", forDur: 10 * time.Minute, over: overKSM,
			logic:   fmt.Sprintf("resident memory of the container that serves the metrics >= memoryRatio (%s) of its limit (kube_pod_container_resource_limits)", num(th.MemoryRatio)),
			differs: "needs kube-state-metrics and the namespace, pod and container labels on the controller's target (the Prometheus Operator sets them)",
			expr:    b.r(recMemoryOfLimit) + " >= " + num(th.MemoryRatio),
			summary: "Container {{ $labels.container }} of " + who + " is near its memory limit",
			desc:    "Resident memory of container {{ $labels.container }} of " + who + " is {{ $value | humanizePercentage }} of its memory limit (memoryRatio " + num(th.MemoryRatio) + ")."},
		{name: "OOMKilled", check: "memory-pressure", severity: findings.OOMKilledSeverity, over: overKSM,
			logic:   fmt.Sprintf("the container that serves the metrics was last terminated OOMKilled and restarted within since (%s)", since),
			differs: "needs kube-state-metrics and the namespace, pod and container labels on the controller's target",
			expr: "(" + `kube_pod_container_status_last_terminated_reason{reason="OOMKilled"}` + " == 1)\n  and on (namespace, pod, container)\n(increase(kube_pod_container_status_restarts_total[" + since + "]) > 0)" +
				"\n  and on (namespace, pod, container)\n" + up,
			summary: "Container {{ $labels.container }} of " + who + " was OOMKilled",
			desc:    "Container {{ $labels.container }} of " + who + " was OOMKilled and restarted within the last " + since + "."},
		{name: "WorkersSaturated", check: "workers-saturated", forDur: 10 * time.Minute,
			logic:   fmt.Sprintf("all workers busy and items wait: queue p99 >= saturatedQueueWait (%s) over at least minEvents (%s) waits, or the depth grew by risingDepth (%s) or more over the window, or held at least that at both ends, or items waited at both ends and none left the queue; without worker metrics, that queue p99 and above work p99; not when priority-starvation says it better", th.SaturatedQueueWait, num(th.MinEvents), num(th.RisingDepth)),
			expr:    saturated,
			summary: "All workers of " + queue + " are busy",
			desc:    "All workers of " + queue + " are busy and {{ $value | humanize }} items wait (queue p99 >= " + th.SaturatedQueueWait.String() + ", or the depth grew by " + num(th.RisingDepth) + " or more in " + w + " or held that many through it): raise the workers or make items cheaper."},
		{name: "SlowReconcile", check: "slow-reconcile", forDur: 15 * time.Minute,
			logic:   fmt.Sprintf("work p99 over the window >= slowWork (%s), with no stuck worker and workers not saturated", th.SlowWork),
			differs: "when no item finished in the window the report judges the work p99 since the process started; the rules wait for items to finish",
			expr:    workP99 + " >= " + secs(time.Duration(th.SlowWork)) + unless + "(" + stuck + ")" + unless + saturated + standby,
			summary: "Reconciles of " + queue + " are slow",
			desc:    queue + " spends {{ $value | humanizeDuration }} on an item (p99 over " + w + ", slowWork " + th.SlowWork.String() + ") although workers are free."},
		{name: "APIErrors", check: "api-errors", forDur: 15 * time.Minute,
			logic:   fmt.Sprintf("over apiErrorRatio (%s) of at least minEvents (%s) requests in the window failed with 5xx or transport errors (429s are server-throttling)", num(th.APIErrorRatio), num(th.MinEvents)),
			expr:    b.r(recFailedRatio) + " > " + num(th.APIErrorRatio) + onTgt + "(" + b.r(recRequests) + " >= " + num(th.MinEvents) + ")",
			summary: "Requests of " + who + " to the API server fail",
			desc:    "{{ $value | humanizePercentage }} of the requests of " + who + " to the API server failed (5xx, transport) in the last " + w + " (apiErrorRatio " + num(th.APIErrorRatio) + ")."},
		{name: "BacklogGrowing", check: "backlog-growing", forDur: 15 * time.Minute,
			logic:   fmt.Sprintf("the depth grew by risingDepth (%s) or more over the window; not on a warm standby", num(th.RisingDepth)),
			expr:    depth + and + "(" + change + " >= " + num(th.RisingDepth) + ")" + standby,
			summary: "Backlog growing in " + queue,
			desc:    "{{ $value | humanize }} items wait in " + queue + ", up by " + num(th.RisingDepth) + " or more in " + w + "."},
		{name: "ReconcileTimeouts", check: "reconcile-timeouts",
			logic:   fmt.Sprintf("controller_runtime_reconcile_timeouts_total rose over the window (%s)", w),
			expr:    "increase(" + b.rng("controller_runtime_reconcile_timeouts_total") + ") > 0",
			summary: "Reconciles of " + ctrl + " time out",
			desc:    "{{ $value | humanize }} reconciles of " + ctrl + " ran past ReconciliationTimeout and were cut off in the last " + w + "."},
		{name: "PersistentFailures", check: "persistent-failures", forDur: 15 * time.Minute,
			logic:   fmt.Sprintf("at least persistentFailures (%s) failing reconciles in the window, all of them or over errorRatio (%s), and no retry storm", num(th.PersistentFailures), num(th.ErrorRatio)),
			differs: "the report, having read the objects' status (Ready=False, Stalled=True), names the failing objects and their reasons; the rules judge the window's counts, as the report does without the objects",
			expr: b.r(recErrors) + " >= " + num(th.PersistentFailures) + and + "(" + errRatio + " > " + num(th.ErrorRatio) + " or " + errRatio + " >= 1)" +
				unless + "(" + storm + ")",
			summary: "Some objects of " + ctrl + " keep failing",
			desc:    "{{ $value | humanize }} reconciles of " + ctrl + " failed in the last " + w + ", below the retry storm rate: some objects keep failing and back off. The report names them."},
		{name: "PriorityStarvation", check: "priority-starvation", forDur: 10 * time.Minute,
			logic:   fmt.Sprintf("on controller-runtime's priority queue, the items at priority -100 (initial list, resyncs) did not drain over the window while every worker served the higher priorities, which grew by less than risingDepth (%s)", num(th.RisingDepth)),
			differs: "the rules judge priority -100 against the others; the report judges every integer priority against those above it",
			expr:    starved,
			summary: "Low-priority items of " + queue + " starve",
			desc:    "{{ $value | humanize }} items of priority -100 in " + queue + " did not drain in the last " + w + " while every worker served higher priorities."},
		{name: "ServerThrottling", check: "server-throttling", forDur: 10 * time.Minute,
			logic:   fmt.Sprintf("the API server answered 429 to at least serverThrottleRejections (%s) of the controller's requests in the window", num(th.ServerThrottleRejections)),
			expr:    b.r(recThrottled) + " >= " + num(th.ServerThrottleRejections),
			summary: "The API server throttles " + who,
			desc:    "The API server answered 429 Too Many Requests to {{ $value | humanize }} requests of " + who + " in the last " + w + ": API Priority and Fairness throttles it."},
		{name: "PriorityLevelThrottling", check: "server-throttling", forDur: 10 * time.Minute,
			logic: fmt.Sprintf("on the API server, a priority level rejected at least serverThrottleRejections (%s) requests in the window, or its queue wait p99 reached apfQueueWait (%s) over at least minEvents requests", num(th.ServerThrottleRejections), th.APFQueueWait),
			expr: b.r(recAPFRejected) + " >= " + num(th.ServerThrottleRejections) + "\n  or on (job, instance, priority_level)\n(\n  " + b.r(recAPFWaitP99) + " >= " + secs(time.Duration(th.APFQueueWait)) +
				"\n    and on (job, instance, priority_level)\n  " + b.r(recAPFWaits) + " >= " + num(th.MinEvents) + "\n)",
			summary: "Priority level {{ $labels.priority_level }} of " + who + " throttles requests",
			desc:    "Priority level {{ $labels.priority_level }} of the API server " + who + " rejected requests or kept them waiting: {{ $value | humanize }} (rejections in " + w + ", or wait p99 in seconds)."},
		{name: "FlowSchemaWaits", check: "flowschema-waits", forDur: 10 * time.Minute,
			logic: fmt.Sprintf("on the API server, the requests of a FlowSchema waited in its priority level's queues with a p99 of at least apfQueueWait (%s) over at least minEvents (%s) requests in the window", th.APFQueueWait, num(th.MinEvents)),
			differs: "the report finds the FlowSchema that classifies each controller's ServiceAccount among the cluster's FlowSchemas (an API object) and names the controller; " +
				"the rule judges every FlowSchema's waits on the API server, whoever sends its requests",
			expr: b.r(recFSWaitP99) + " >= " + secs(time.Duration(th.APFQueueWait)) + "\n  and on (job, instance, priority_level, flow_schema)\n" +
				b.r(recFSWaits) + " >= " + num(th.MinEvents),
			summary: "Requests of FlowSchema {{ $labels.flow_schema }} wait on " + who,
			desc: "Requests that FlowSchema {{ $labels.flow_schema }} sends to priority level {{ $labels.priority_level }} of the API server " + who +
				" waited {{ $value | humanizeDuration }} (p99 over " + w + ", apfQueueWait " + th.APFQueueWait.String() + ") in its queues: the clients it classifies are delayed. kubectl ctrldiag report with the API server in scope names the controllers."},
		{name: "APIServerSlowRequests", check: "request-latency", forDur: 10 * time.Minute,
			logic: fmt.Sprintf("on the API server, a verb on a resource (WATCH, WATCHLIST and CONNECT left out) has a p99 over the window of at least apiServerLatency (%s) over at least minEvents (%s) requests", th.APIServerLatency, num(th.MinEvents)),
			differs: "the report judges only the resources a controller reads and writes and names the controller, and tells a slow client (rest_client_request_duration_seconds) from a slow server; " +
				"the rule judges every verb and resource on the API server",
			expr: b.r(recAPIReqP99) + " >= " + secs(time.Duration(th.APIServerLatency)) + "\n  and on (job, instance, verb, group, resource, subresource)\n" +
				b.r(recAPIReqs) + " >= " + num(th.MinEvents),
			summary: "The API server " + who + " is slow for {{ $labels.verb }} {{ $labels.resource }}",
			desc: "The API server " + who + " served {{ $labels.verb }} {{ $labels.resource }}{{ with $labels.group }}.{{ . }}{{ end }}{{ with $labels.subresource }}/{{ . }}{{ end }} in {{ $value | humanizeDuration }} (p99 over " + w +
				", apiServerLatency " + th.APIServerLatency.String() + "): every client of it waits. kubectl ctrldiag report with the API server in scope names the controllers that use it."},
		{name: "WebhookLatency", check: "webhook-latency", forDur: 10 * time.Minute,
			differs: "the report also judges, on the API server, each webhook it calls by operation (apiserver_admission_webhook_admission_duration_seconds); " +
				"this alert covers the webhooks a controller serves",
			logic: fmt.Sprintf("webhook p90 over the window >= webhookLatency (%s) over at least minEvents (%s) requests, sure from the buckets or confirmed by the mean", th.WebhookLatency, num(th.MinEvents)),
			expr: b.r(recWebhookP90) + " >= " + secs(time.Duration(th.WebhookLatency)) + "\n  and on (job, instance, webhook)\n(" + b.r(recWebhookReqs) + " >= " + num(th.MinEvents) + ")" +
				"\n  and on (job, instance, webhook)\n(" + b.r(recWebhookMean) + " >= " + secs(time.Duration(th.WebhookLatency)) + " or " + b.r(recWebhookFast) + " < 0.9)",
			summary: "Webhook {{ $labels.webhook }} of " + who + " is slow",
			desc:    "Webhook {{ $labels.webhook }} of " + who + " answers admission requests in {{ $value | humanizeDuration }} (p90 over " + w + ", webhookLatency " + th.WebhookLatency.String() + ")."},
		b.burn("QueueWaitBudgetBurnFast", "1h", "5m", 14.4, 2*time.Minute),
		b.burn("QueueWaitBudgetBurnSlow", "6h", "30m", 6, 15*time.Minute),
		{name: "BacklogHigh", check: "backlog-high", forDur: 15 * time.Minute,
			logic: fmt.Sprintf("depth >= backlogDepth (%s), whatever its trend; not on a warm standby", num(th.BacklogDepth)),
			differs: fmt.Sprintf("the report raises backlog-high only when the depth did not also grow by risingDepth (%s) over the window (that is backlog-growing); ", num(th.RisingDepth)) +
				"the rule fires on the depth alone, so that a deep queue whose trend turns keeps its alert, and both fire while a deep queue grows",
			expr:    depth + " >= " + num(th.BacklogDepth) + standby,
			summary: "Deep backlog in " + queue,
			desc:    "{{ $value | humanize }} items wait in " + queue + " (backlogDepth " + num(th.BacklogDepth) + "): if it drains it clears by itself; if it stays deep, the report names the cause."},
		{name: "Restarts", check: "restarts", over: overKSM,
			logic:   fmt.Sprintf("a container of the controller's pod restarted within since (%s)", since),
			differs: "needs kube-state-metrics and the namespace and pod labels on the controller's target",
			expr:    "increase(kube_pod_container_status_restarts_total[" + since + "]) > 0\n  and on (namespace, pod)\n" + up,
			summary: "Container {{ $labels.container }} of " + who + " restarted",
			desc:    "Container {{ $labels.container }} of " + who + " restarted {{ $value | humanize }} times in the last " + since + ": read its last termination reason and kubectl logs --previous."},
		{name: "NoLeader", check: "leader-election", forDur: 5 * time.Minute,
			logic: "among at least two replicas that report leader_election_master_status for one lease in one namespace, none leads",
			expr: "sum by (namespace, name) (" + b.sel("leader_election_master_status") + ") == 0\n  and on (namespace, name)\ncount by (namespace, name) (" +
				b.sel("leader_election_master_status") + ") >= 2",
			summary: "No replica leads {{ $labels.name }} in {{ $labels.namespace }}",
			desc:    "None of the replicas that report lease {{ $labels.name }} in namespace {{ $labels.namespace }} leads: its controllers do not run."},
		{name: "SeveralLeaders", check: "leader-election", severity: findings.SeveralLeadersSeverity, forDur: time.Minute,
			logic:   "more than one replica claims to lead one lease in one namespace",
			expr:    "sum by (namespace, name) (" + b.sel("leader_election_master_status") + ") > 1",
			summary: "{{ $value }} replicas lead {{ $labels.name }} in {{ $labels.namespace }}",
			desc:    "{{ $value }} replicas claim to lead lease {{ $labels.name }} in namespace {{ $labels.namespace }}: two controllers write the same objects."},
		b.notSyncing(),
	}
}

// notSyncing is the twin of not-syncing: the last successful sync of external-dns (its start,
// when none succeeded) is missedSyncs periods old. The period is its --interval, which no
// series carries: the spacing of its attempts stands for it, the time they were counted over
// (its life, at most since) by how many times the attempt timestamp changed. A scrape interval
// longer than the period makes the spacing longer, so the alert may come later than the
// report, never sooner.
func (b *builder) notSyncing() alertDef {
	th := b.o.Thresholds
	since := time.Duration(th.Since)
	lastSync, lastAttempt := b.sel("external_dns_controller_last_sync_timestamp_seconds"), b.sel("external_dns_controller_last_reconcile_timestamp_seconds")
	start := b.sel("process_start_time_seconds")
	return alertDef{name: "NotSyncing", check: "not-syncing", forDur: 5 * time.Minute,
		logic: fmt.Sprintf("the last successful sync (the process's start when none succeeded) is at least missedSyncs (%s) times the spacing of the attempts old: "+
			"the process's life, at most since (%s), by the changes of the attempt timestamp in it", num(th.MissedSyncs), promDuration(since)),
		differs: "the report reads the period from the pod's --interval; the alert from the spacing of the attempts (no series has the flag), at least the scrape interval. " +
			"A process that never attempts a sync (its sources never ready) has no spacing: external-dns exits after a minute, and Restarts alerts on it",
		expr: "time() - (" + lastSync + " > 0 or " + onTarget + " (" + start + " and " + onTarget + " " + lastSync + " == 0))" +
			"\n  >= " + onTarget + "\n" + num(th.MissedSyncs) + " * clamp_max(time() - " + start + ", " + secs(since) + ")\n  / " + onTarget +
			"\nchanges(" + lastAttempt + "[" + promDuration(since) + "])",
		summary: "external-dns " + who + " has not synced for {{ $value | humanizeDuration }}",
		desc: "The last successful sync of " + who + " was {{ $value | humanizeDuration }} ago, " + num(th.MissedSyncs) +
			" or more of its periods: changes of its sources no longer reach the DNS provider. Read its log from then, and the RBAC of its sources. Evidence: kubectl ctrldiag report -n {{ $labels.namespace }}."}
}

// burn is a multiwindow burn-rate alert of the queue-wait objective (the SRE workbook): the
// share of waits surely over targetQueueWait, over the long window and the short one, both at
// least factor times the budget (1 − SLOQuantile), over at least 100 waits in the long one (a
// p99 needs them); not on a warm standby, and not while the long window holds the process's
// start. A start-up lists every object at once, so its first waits are long; over a window
// that is not yet full they are most of the waits and look like a burn of many times the
// budget, which they are not (the report, likewise, does not judge a window holding a start).
func (b *builder) burn(name, long, short string, factor float64, forDur time.Duration) alertDef {
	th := b.o.Thresholds
	budget := 1 - findings.SLOQuantile
	limit := num(factor * budget)
	and := "\n  and " + onQueue + "\n"
	waits := b.sel(b.recAt(recWaits, long))
	longSecs, err := time.ParseDuration(long)
	if err != nil {
		panic("alerts: burn window " + long + ": " + err.Error()) // the windows are constants
	}
	return alertDef{name: name, check: "queue-wait-slo", forDur: forDur,
		logic: fmt.Sprintf("the share of waits surely over targetQueueWait (%s) is over %s× the budget of %s (%s) over both %s and %s, with at least 100 waits in %s; not on a warm standby, nor within %s of the process's start",
			th.TargetQueueWait, num(factor), num(budget), limit, long, short, long, long),
		differs: "the report judges the window between its samples with a Poisson margin; the alert burns the error budget over fixed windows (1h and 5m fast, 6h and 30m slow) whatever --window is. " +
			"An objective between buckets counts only the waits above the next bucket. " +
			"Both leave out a start-up: the report a window that holds a restart, the alert the " + long + " after process_start_time_seconds (where a target exports it)",
		expr: b.sel(b.recAt(recWaitOverSLO, long)) + " > " + limit + and + b.sel(b.recAt(recWaitOverSLO, short)) + " > " + limit +
			and + waits + " >= 100" + "\n  unless " + onQueue + "\n" + b.r(recStandby) +
			"\n  unless " + onTarget + "\n" + "(time() - " + b.sel("process_start_time_seconds") + " < " + secs(longSecs) + ")",
		summary: "Items of " + queue + " wait over " + th.TargetQueueWait.String(),
		desc: "{{ $value | humanizePercentage }} of the items of " + queue + " waited over " + th.TargetQueueWait.String() + " over the last " + long +
			" (p99 objective: at most " + num(100*budget) + "%): the queue-wait error budget burns " + num(factor) + " times too fast. kubectl ctrldiag report names the cause."}
}
