package scenario

import (
	"fmt"
	"sort"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/api/v1alpha1"
)

// Scenario is one named, reproducible load.
type Scenario struct {
	Name string
	// Signature is what the scenario shows on /metrics, for help text and docs/operator.md.
	Signature string
	// Objects is how many Workloads the scenario keeps.
	Objects int
	// Initial is how many of them (the first ones) exist before the operator's manager
	// starts: the operator creates those that are missing first (Driver.Prepare), so that they
	// reach the controller in its informers' initial list, which controller-runtime's priority
	// queue puts at priority -100, and the driver leaves them alone after.
	Initial int
	// Spec returns the spec of the i-th Workload.
	Spec func(i int) v1alpha1.WorkloadSpec
	// Touch is how the driver keeps changing the objects.
	Touch Touch
	// Client overrides the operator's client rate limit when QPS != 0 (unless the user set
	// --qps/--burst); QPS < 0 removes the client-side limit.
	Client ClientLimits
	// ConfigMaps, when set, are ConfigMaps the operator's second controller ("settings")
	// reconciles, some of them failing.
	ConfigMaps *ConfigMaps
	// Cache slows the operator's informers down.
	Cache CacheDelays
	// Workers overrides the operator's concurrent reconciles when > 0 (unless the user set
	// --workers).
	Workers int
	// FlowControl, when set, is the API Priority and Fairness the scenario sets up on the API
	// server for the operator's own identity (see FlowControlObjects).
	FlowControl *FlowControl
	// Heal, when > 0, ends the objects' failures this long after the driver applied them: it
	// sets spec.failureRate of every object to 0 (a new generation, reconciled at once), so
	// that the failures are a past incident and the objects become Ready again.
	Heal time.Duration
	// Warmup starts the controller's sources before the replica leads (controller-runtime's
	// EnableWarmup): a standby's informers fill its workqueue while no worker runs.
	Warmup bool
	// Webhook, when set, is a validating admission webhook the operator serves and registers
	// for its own writes (operator run --webhook-bind-address).
	Webhook *Webhook
}

// Webhook is a validating admission webhook that allows every request it intercepts after
// Delay, for the writes in Rules (Verbs are admission operations: CREATE, UPDATE, DELETE)
// in the operator's namespace.
type Webhook struct {
	Delay time.Duration
	Rules []ResourceRule
}

// Touch describes the driver's writes: every Every, the next PerTick objects (round robin,
// skipping the first Skip) get a new changed-at annotation; with FlipChildren their
// spec.children also alternates between its value and one more, which creates and deletes
// child ConfigMaps. Every == 0 means no writes after creation.
type Touch struct {
	Every        time.Duration
	PerTick      int
	Skip         int
	FlipChildren bool
}

// ClientLimits are the client-side rate limits of the operator's API client. QPS < 0 sets no
// client-side limit at all, as controller-runtime >= 0.21 does by default.
type ClientLimits struct {
	QPS   float32
	Burst int
	// NoRateLimiterMetric leaves rest_client_rate_limiter_duration_seconds unexported, as
	// controller-runtime does unless the operator opts in: the throttling shows only in
	// client-go's "Waited for ..." log lines.
	NoRateLimiterMetric bool
}

// CacheDelays slow down the informer pipeline: Transform sleeps in the cache transform
// function (run when the reflector queues an event), Index sleeps in an index function (run
// when the informer pops the event and updates its store).
type CacheDelays struct {
	Transform time.Duration
	Index     time.Duration
}

func same(s v1alpha1.WorkloadSpec) func(int) v1alpha1.WorkloadSpec {
	return func(int) v1alpha1.WorkloadSpec { return s }
}

func dur(d time.Duration) metav1.Duration { return metav1.Duration{Duration: d} }

var all = []Scenario{
	{
		Name:      "healthy",
		Signature: "few objects, fast reconciles; workqueue_depth returns to 0, no errors, work p99 in milliseconds",
		Objects:   5,
		Spec:      same(v1alpha1.WorkloadSpec{Children: 1}),
		Touch:     Touch{Every: 5 * time.Second, PerTick: 1},
	},
	{
		Name:      "slow",
		Signature: "every reconcile sleeps 3s, one touch every 6s; workqueue_work_duration_seconds p99 in the 1-10s bucket while active_workers < max_concurrent_reconciles and depth returns to 0",
		Objects:   3,
		Spec:      same(v1alpha1.WorkloadSpec{ReconcileDelay: dur(3 * time.Second)}),
		Touch:     Touch{Every: 6 * time.Second, PerTick: 1},
	},
	{
		Name:      "saturated",
		Signature: "150 objects touched 10/s, each reconcile takes 1s; workqueue_depth stays > 0 and grows, active_workers == max_concurrent_reconciles, queue_duration rises",
		Objects:   150,
		Spec:      same(v1alpha1.WorkloadSpec{ReconcileDelay: dur(time.Second)}),
		Touch:     Touch{Every: 100 * time.Millisecond, PerTick: 1},
	},
	{
		Name:      "stuck",
		Signature: "one reconcile never returns (an HTTP call without a timeout to a backend that never answers); workqueue_longest_running_processor_seconds and unfinished_work_seconds grow steadily, one worker stays busy",
		Objects:   4,
		Spec: func(i int) v1alpha1.WorkloadSpec {
			if i == 0 {
				return v1alpha1.WorkloadSpec{Stuck: true}
			}
			return v1alpha1.WorkloadSpec{Children: 1}
		},
		Touch: Touch{Every: 2 * time.Second, PerTick: 1, Skip: 1},
	},
	{
		Name:      "errors",
		Signature: "failureRate 1 on 100 objects touched 20/s: every reconcile fails, ~20 failing reconciles/s (a storm, not back-off); controller_runtime_reconcile_errors_total, reconcile_total{result=error} and workqueue_retries_total rise",
		Objects:   100,
		Spec:      same(v1alpha1.WorkloadSpec{FailureRate: 1}),
		Touch:     Touch{Every: 100 * time.Millisecond, PerTick: 2},
	},
	{
		Name:      "hotloop",
		Signature: "requeueAfter 50ms with no real work; high workqueue_adds_total and reconcile_total{result=requeue_after}, retries rise, work duration near zero, no errors",
		Objects:   5,
		Spec:      same(v1alpha1.WorkloadSpec{RequeueAfter: dur(50 * time.Millisecond)}),
	},
	{
		Name:      "throttled",
		Signature: "client QPS 1, burst 1, with ~4 writes/s needed; rest_client_rate_limiter_duration_seconds grows to seconds, work duration follows",
		Objects:   20,
		Spec:      same(v1alpha1.WorkloadSpec{Children: 3}),
		Touch:     Touch{Every: time.Second, PerTick: 2, FlipChildren: true},
		Client:    ClientLimits{QPS: 1, Burst: 1},
	},
	{
		Name:      "throttled-unmetered",
		Signature: "throttled (client QPS 1, burst 1, ~4 writes/s needed) in a process that exports no rest_client_rate_limiter_duration_seconds, as controller-runtime's default; work duration grows, and only client-go's log says why: \"Waited ... due to client-side throttling\" (at most every 10s at -v=0, every second at -v=2)",
		Objects:   20,
		Spec:      same(v1alpha1.WorkloadSpec{Children: 3}),
		Touch:     Touch{Every: time.Second, PerTick: 2, FlipChildren: true},
		Client:    ClientLimits{QPS: 1, Burst: 1, NoRateLimiterMetric: true},
	},
	{
		Name:      "failing-configmaps",
		Signature: "5 healthy Workloads, and a second controller (settings) over 8 labelled ConfigMaps that fails every reconcile of 3 of them (settings-001, -004, -006), each touched every 3s: ~1 failing reconcile/s, no storm; ConfigMaps have no status: only controller_runtime_reconcile_errors_total{controller=\"settings\"} counts the failures and only the log (\"Reconciler error\") names the objects and errors",
		Objects:   5,
		Spec:      same(v1alpha1.WorkloadSpec{Children: 1}),
		Touch:     Touch{Every: 5 * time.Second, PerTick: 1},
		ConfigMaps: &ConfigMaps{Count: 8, Every: 3 * time.Second, Error: func(i int) string {
			switch i {
			case 1:
				return "parse config.yaml: yaml: line 3: mapping values are not allowed in this context"
			case 4, 6:
				return fmt.Sprintf("validate settings-%03d: replicas must be a number, got three", i)
			}
			return ""
		}},
	},
	{
		Name:      "failing-then-stuck",
		Signature: "the settings controller (one worker) fails every reconcile of 2 of 8 labelled ConfigMaps (settings-001, -004) for its first 20s, then blocks for good on settings-007: the failures stop and the worker is stuck; only the log read still names the two objects and their errors",
		Objects:   5,
		Spec:      same(v1alpha1.WorkloadSpec{Children: 1}),
		Touch:     Touch{Every: 5 * time.Second, PerTick: 1},
		ConfigMaps: &ConfigMaps{Count: 8, Every: 3 * time.Second, Block: 7, BlockAfter: 20 * time.Second, Error: func(i int) string {
			switch i {
			case 1:
				return "sync to backend: dial tcp 10.96.0.9:443: connect: connection refused"
			case 4:
				return "validate settings-004: replicas must be a number, got three"
			}
			return ""
		}},
	},
	{
		Name:      "stale",
		Signature: "slow cache (40ms index, 2ms transform per event) with 40 writes/s; informer_queued_items grows into the hundreds, informer_processing_latency_seconds in seconds, informer_store_resource_version lags apiserver_watch_cache_resource_version, event-handler lag tens of seconds; reads wait on the store lock, so reconciles slow down too",
		Objects:   100,
		Spec:      same(v1alpha1.WorkloadSpec{}),
		Touch:     Touch{Every: 50 * time.Millisecond, PerTick: 2},
		Cache:     CacheDelays{Transform: 2 * time.Millisecond, Index: 40 * time.Millisecond},
	},
	{
		Name:      "memory",
		Signature: "200 objects with a 200 kB child ConfigMap each (~40 MB in the cache); process_resident_memory_bytes and go_memstats_heap_inuse_bytes grow",
		Objects:   200,
		Spec:      same(v1alpha1.WorkloadSpec{Children: 1, PayloadBytes: 200_000}),
		Touch:     Touch{Every: 10 * time.Second, PerTick: 1},
	},
	{
		Name:      "failing",
		Signature: "6 of 11 objects fail every reconcile and back off (Ready=False: 4 DependencyUnavailable, 2 RepositoryNotFound); the rest succeed and requeue after 20s; reconcile errors rise slowly (back-off), no storm",
		Objects:   11,
		Spec: func(i int) v1alpha1.WorkloadSpec {
			switch {
			case i < 4:
				return v1alpha1.WorkloadSpec{FailureRate: 1, FailureReason: "DependencyUnavailable",
					FailureMessage: fmt.Sprintf("clone https://git.example.com/team/app-%d: dial tcp 10.96.0.7:443: connect: connection refused", i)}
			case i < 6:
				return v1alpha1.WorkloadSpec{FailureRate: 1, FailureReason: "RepositoryNotFound",
					FailureMessage: fmt.Sprintf("clone https://git.example.com/team/gone-%d: repository not found", i)}
			}
			return v1alpha1.WorkloadSpec{Children: 1, RequeueAfter: dur(20 * time.Second)}
		},
	},
	{
		Name:      "polling",
		Signature: "300 objects, each requeued after 20-40s with no work (a controller polling an external system); ~10 reconciles/s, all requeue_after, work p50 under a millisecond, but each object only every 20-40s: no hot loop",
		Objects:   300,
		Spec: func(i int) v1alpha1.WorkloadSpec {
			// Spread periods, as real polling spreads over time, so that reconciles do not come in
			// one burst per period.
			return v1alpha1.WorkloadSpec{RequeueAfter: dur(20*time.Second + time.Duration(i%100)*200*time.Millisecond)}
		},
	},
	{
		Name:      "apf-throttled",
		Signature: "no client-side limit (QPS -1), 8 workers; a FlowSchema sends the operator's child ConfigMap and status writes to a priority level with no seats that rejects, so they run one at a time and the rest are answered 429: rest_client_requests_total{code=\"429\"} and apiserver_flowcontrol_rejected_requests_total{reason=\"concurrency-limit\"} rise together; client-go retries each after the server's Retry-After",
		Objects:   100,
		Spec:      same(v1alpha1.WorkloadSpec{Children: 1, PayloadBytes: 100_000}),
		Touch:     Touch{Every: 50 * time.Millisecond, PerTick: 1, FlipChildren: true},
		Client:    ClientLimits{QPS: -1},
		Workers:   16,
		FlowControl: &FlowControl{Rules: []ResourceRule{
			{Group: "", Resource: "configmaps", Verbs: []string{"create", "update", "patch", "delete"}},
			{Group: v1alpha1.GroupVersion.Group, Resource: "workloads/status", Verbs: []string{"update", "patch"}},
		}},
	},
	{
		Name:      "slow-webhook",
		Signature: "the operator's own validating webhook answers after 1s and intercepts its status writes (workloads/status UPDATE); 20 objects flip their children 8 times/s, 4 workers: each reconcile waits ~1s in admission, apiserver_admission_webhook_admission_duration_seconds{operation=\"UPDATE\"} and controller_runtime_webhook_latency_seconds sit in the 1s bucket, ~4 calls/s, the workers are all busy",
		Objects:   20,
		Spec:      same(v1alpha1.WorkloadSpec{Children: 1}),
		Touch:     Touch{Every: 125 * time.Millisecond, PerTick: 1, FlipChildren: true},
		Workers:   4,
		Webhook: &Webhook{Delay: time.Second, Rules: []ResourceRule{
			{Group: v1alpha1.GroupVersion.Group, Resource: "workloads/status", Verbs: []string{"UPDATE"}},
		}},
	},
	{
		Name:      "starved",
		Signature: "40 objects exist before the start (initial list: priority -100), 20 more are created after it and touched 10/s (events: priority 0), each reconcile takes 1s; the 2 workers only ever serve priority 0: workqueue_depth{priority=\"-100\"} stays near 40 and does not fall, priority 0 is served 2/s and keeps up (its depth stays near 20, at most one per object)",
		Objects:   60,
		Initial:   40,
		Spec:      same(v1alpha1.WorkloadSpec{ReconcileDelay: dur(time.Second)}),
		Touch:     Touch{Every: 100 * time.Millisecond, PerTick: 1, Skip: 40},
	},
	{
		Name:      "past-incident",
		Signature: "10 objects fail every reconcile for the first 20s (Ready=False DependencyUnavailable, touched 5/s: ~9 failing reconciles/s, a storm while it lasts), then the driver sets failureRate 0 and they turn Ready=True; controller_runtime_reconcile_errors_total keeps the ~190 errors of the incident while the window holds only successes (5/s)",
		Objects:   10,
		Spec: func(i int) v1alpha1.WorkloadSpec {
			return v1alpha1.WorkloadSpec{FailureRate: 1, FailureReason: "DependencyUnavailable",
				FailureMessage: fmt.Sprintf("read https://vault.example.com/v1/secret/app-%d: dial tcp 10.96.0.9:8200: connect: connection refused", i)}
		},
		Touch: Touch{Every: 200 * time.Millisecond, PerTick: 1},
		Heal:  20 * time.Second,
	},
	{
		Name:      "long-reconcile",
		Signature: "one of 30 objects legitimately takes 31s per reconcile (requeued 1s after each), the other 29 are touched 30 times a second and take milliseconds; workqueue_longest_running_processor_seconds climbs past 30s and drops every ~32s, one worker stays busy, work p99 stays in milliseconds (one long item among 150 per 5s)",
		Objects:   30,
		Spec: func(i int) v1alpha1.WorkloadSpec {
			if i == 0 {
				return v1alpha1.WorkloadSpec{ReconcileDelay: dur(31 * time.Second), RequeueAfter: dur(time.Second)}
			}
			return v1alpha1.WorkloadSpec{}
		},
		Touch: Touch{Every: 100 * time.Millisecond, PerTick: 3, Skip: 1},
	},
	{
		Name:      "periodic",
		Signature: "150 objects, each requeued 10s after a 100ms reconcile (a controller that refreshes every object on an interval): a closed loop offering ~15 reconciles/s, 1.5 workers' worth; all requeue_after; at 1 worker the queue never empties, at 2 it keeps up",
		Objects:   150,
		Spec:      same(v1alpha1.WorkloadSpec{ReconcileDelay: dur(100 * time.Millisecond), RequeueAfter: dur(10 * time.Second)}),
	},
	{
		Name:      "steps",
		Signature: "300 objects, each reconcile takes 500ms in all (its status write first, then the rest asleep, so that a busy API server does not lengthen it), 4 workers (8 reconciles/s), nothing touches them: the load is whoever changes their spec (a test or a user patching spec.seed), so that queue wait, spec latency and headroom can be measured at a chosen rate",
		Objects:   300,
		Spec:      same(v1alpha1.WorkloadSpec{ReconcileFor: dur(500 * time.Millisecond)}),
		Workers:   4,
	},
	{
		Name:      "warm-standby",
		Signature: "run it as two replicas with one --leader-election-id: 8 healthy objects with controller-runtime warm replicas (EnableWarmup); the standby's informers fill its workqueue (workqueue_depth 8) while it runs no worker and exports no controller_runtime_* series; the leader looks like healthy",
		Objects:   8,
		Spec:      same(v1alpha1.WorkloadSpec{Children: 1}),
		Touch:     Touch{Every: 5 * time.Second, PerTick: 1},
		Warmup:    true,
	},
}

// Names lists the scenario names in a stable order.
func Names() []string {
	n := make([]string, 0, len(all))
	for _, s := range all {
		n = append(n, s.Name)
	}
	sort.Strings(n)
	return n
}

// All returns every scenario.
func All() []Scenario { return append([]Scenario(nil), all...) }

// Get returns the scenario called name.
func Get(name string) (Scenario, error) {
	for _, s := range all {
		if s.Name == name {
			return s, nil
		}
	}
	return Scenario{}, fmt.Errorf("unknown scenario %q: use one of %s", name, strings.Join(Names(), ", "))
}
