package findings

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/testpages"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

var nan = math.NaN()

// queue returns QueueStats of a healthy controller-runtime queue with 2 workers; tests change
// what they are about.
func queue(mod func(*health.QueueStats)) health.QueueStats {
	q := health.QueueStats{Target: "t", Queue: "ctrl", Controller: "ctrl", Window: 10 * time.Second,
		Depth: 0, DepthBefore: 0, AddsPerSecond: 1, RetriesPerSecond: 0, CompletionsPerSecond: 1,
		ReconcileErrorsPerSecond: 0, QueueP50: 0.001, QueueP99: 0.005, WorkP50: 0.01, WorkP99: 0.05,
		Waits: 10, Worked: 10, Unfinished: 0, Longest: 0, ActiveWorkers: 0, MaxWorkers: 2, ErrorRatio: 0, RetryRatio: 0, Leader: 1}
	if mod != nil {
		mod(&q)
	}
	return q
}

// crTarget is a controller-runtime target whose controller counted reconciles by result over
// a 10 s window.
func crTarget(q health.QueueStats, before, after map[string]float64, errs float64) Target {
	mk := func(res map[string]float64, e float64) *health.Snapshot {
		return &health.Snapshot{
			Queues:      map[string]*health.Queue{"ctrl": {Name: "ctrl", Controller: "ctrl"}},
			Controllers: map[string]*health.Controller{"ctrl": {Name: "ctrl", ReconcileTotal: res, ReconcileErrors: e}},
			Leader:      map[string]float64{"lease": 1},
		}
	}
	sum := func(m map[string]float64) (t float64) {
		for _, v := range m {
			t += v
		}
		return t
	}
	// The counts health.Queues would have found in these snapshots.
	q.Reconciles, q.ReconcileErrors = sum(after)-sum(before), errs
	q.LifetimeReconciles, q.LifetimeReconcileErrors = sum(after), errs
	return Target{ID: "ns/op:8080", Kind: ControllerRuntime, Prev: mk(before, 0), Cur: mk(after, errs),
		Window: 10 * time.Second, Queues: []health.QueueStats{q}}
}

func checks(fs []Finding) string {
	var s []string
	for _, f := range fs {
		s = append(s, string(f.Severity)+":"+f.Check)
	}
	return strings.Join(s, " ")
}

func TestRulesTellScenariosApart(t *testing.T) {
	ok := map[string]float64{"success": 0}
	okAfter := map[string]float64{"success": 10}
	th := DefaultThresholds()
	for _, tc := range []struct {
		name   string
		target Target
		want   string // checks, worst first
	}{
		{"healthy", crTarget(queue(nil), ok, okAfter, 0), ""},
		{"slow", crTarget(queue(func(q *health.QueueStats) { q.WorkP50, q.WorkP99, q.ActiveWorkers = 3, 3.5, 1 }), ok, okAfter, 0),
			"warning:slow-reconcile"},
		{"saturated", crTarget(queue(func(q *health.QueueStats) {
			q.Depth, q.DepthBefore, q.ActiveWorkers, q.QueueP99, q.WorkP99 = 138, 135, 2, 90, 1.1
		}), ok, okAfter, 0), "warning:workers-saturated warning:backlog-high"},
		{"stuck", crTarget(queue(func(q *health.QueueStats) { q.LongestBefore, q.Longest, q.Unfinished, q.ActiveWorkers = 30, 40, 41, 1 }), ok, okAfter, 0),
			"critical:stuck-worker"},
		// False alarms of real controllers, each none of the above.
		{"one long reconcile, not there at the first sample", crTarget(queue(func(q *health.QueueStats) {
			q.LongestBefore, q.Longest, q.Unfinished, q.ActiveWorkers = 21, 31, 31, 1
		}), ok, okAfter, 0), ""},
		{"a long reconcile that ended, another one started", crTarget(queue(func(q *health.QueueStats) {
			q.LongestBefore, q.Longest, q.ActiveWorkers = 35, 32, 1
		}), ok, okAfter, 0), ""},
		{"the one default worker busy, one item waits", crTarget(queue(func(q *health.QueueStats) {
			q.MaxWorkers, q.ActiveWorkers, q.DepthBefore, q.Depth, q.QueueP99 = 1, 1, 0, 1, 0.004
		}), ok, okAfter, 0), ""},
		{"depth 9 to 10", crTarget(queue(func(q *health.QueueStats) { q.DepthBefore, q.Depth = 9, 10 }), ok, okAfter, 0), ""},
		{"errors", crTarget(queue(func(q *health.QueueStats) { q.RetriesPerSecond, q.RetryRatio = 20, 1 }),
			map[string]float64{"error": 0}, map[string]float64{"error": 200}, 200), "warning:retry-storm"},
		{"a few objects failing, backing off", crTarget(queue(func(q *health.QueueStats) { q.RetriesPerSecond, q.RetryRatio = 1.4, 1 }),
			map[string]float64{"error": 0}, map[string]float64{"error": 14}, 14), "warning:persistent-failures"},
		{"hotloop", crTarget(queue(func(q *health.QueueStats) { q.AddsPerSecond, q.RetriesPerSecond, q.WorkP50 = 98, 98, 0.0002 }),
			map[string]float64{"requeue_after": 0}, map[string]float64{"requeue_after": 980}, 0), "warning:hot-loop"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := checks(Evaluate([]Target{tc.target}, nil, nil, th)); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	// A deep backlog that drains is still a backlog, and says it drains: backlog-high, never
	// backlog-growing.
	draining := crTarget(queue(func(q *health.QueueStats) { q.DepthBefore, q.Depth = 170, 150 }), ok, okAfter, 0)
	fs := Evaluate([]Target{draining}, nil, nil, th)
	if checks(fs) != "warning:backlog-high" || !strings.Contains(fs[0].Summary, "down from 170 in the last 10s: draining") {
		t.Errorf("draining: %s %+v", checks(fs), fs)
	}
}

func TestClientPodLeaderAndCacheRules(t *testing.T) {
	th := DefaultThresholds()
	hist := func(count, sum float64) *health.Histogram {
		return &health.Histogram{Count: count, Sum: sum, Buckets: []health.Bucket{{UpperBound: 1, Count: count}, {UpperBound: math.Inf(1), Count: count}}}
	}
	base := crTarget(queue(nil), nil, nil, 0)
	throttled := base
	throttled.Prev = &health.Snapshot{Client: health.Client{RateLimiterDuration: hist(10, 1)}}
	throttled.Cur = &health.Snapshot{Queues: base.Cur.Queues, Client: health.Client{RateLimiterDuration: hist(30, 21),
		RequestsByCode: map[string]float64{"200": 100}}}
	if got := checks(Evaluate([]Target{throttled}, nil, nil, th)); got != "warning:client-throttling" {
		t.Errorf("throttled: %q", got)
	}
	// A client held to QPS 1 makes five requests in a 5s window, each waiting about a second:
	// throttling, although too few requests for a ratio.
	slowQPS := throttled
	slowQPS.Cur = &health.Snapshot{Queues: base.Cur.Queues, Client: health.Client{RateLimiterDuration: hist(15, 6)}}
	if got := checks(Evaluate([]Target{slowQPS}, nil, nil, th)); got != "warning:client-throttling" {
		t.Errorf("throttled to QPS 1: %q", got)
	}
	// Two requests that waited are not enough to say so.
	twice := throttled
	twice.Cur = &health.Snapshot{Queues: base.Cur.Queues, Client: health.Client{RateLimiterDuration: hist(12, 3)}}
	if got := checks(Evaluate([]Target{twice}, nil, nil, th)); got != "" {
		t.Errorf("two waits: %q", got)
	}

	apiErr := base
	apiErr.Prev = &health.Snapshot{Client: health.Client{RequestsByCode: map[string]float64{"200": 100, "429": 1}}}
	apiErr.Cur = &health.Snapshot{Queues: base.Cur.Queues, Client: health.Client{RequestsByCode: map[string]float64{"200": 190, "429": 6, "503": 4}}}
	// 5 new 429s are server throttling, 4 503s in 99 requests are API errors.
	if got := checks(Evaluate([]Target{apiErr}, nil, nil, th)); got != "warning:api-errors warning:server-throttling" {
		t.Errorf("api errors: %q", got)
	}

	mem := base
	mem.Cur = &health.Snapshot{Queues: base.Cur.Queues, Process: health.Process{ResidentMemoryBytes: 110 << 20}}
	mem.Pod = &Pod{Namespace: "ns", Name: "op", MemoryLimitBytes: 128 << 20}
	if got := checks(Evaluate([]Target{mem}, nil, nil, th)); got != "warning:memory-pressure" {
		t.Errorf("memory: %q", got)
	}
	oom := func(container string, ago time.Duration) []Termination {
		return []Termination{{Container: container, Restarts: 2, Reason: "OOMKilled", Ago: ago}}
	}
	mem.Pod = &Pod{Namespace: "ns", Name: "op", Container: "manager", Terminations: oom("manager", 10*time.Minute)}
	if got := checks(Evaluate([]Target{mem}, nil, nil, th)); got != "critical:memory-pressure warning:restarts" {
		t.Errorf("OOMKilled: %q", got)
	}
	// A sidecar OOMKilled 30 days ago, the manager far under its limit: history, not pressure.
	mem.Pod = &Pod{Namespace: "ns", Name: "op", Container: "manager", MemoryLimitBytes: 1 << 30, Terminations: oom("proxy", 30*24*time.Hour)}
	fs := Evaluate([]Target{mem}, nil, nil, th)
	if got := checks(fs); got != "info:memory-pressure info:restarts" || !strings.Contains(fs[0].Summary, "30 days ago (not the container that serves the metrics)") {
		t.Errorf("old sidecar OOMKill: %q %+v", got, fs)
	}
	// The manager itself, OOMKilled two hours ago, beyond --since (1h): info; within it: critical.
	mem.Pod = &Pod{Namespace: "ns", Name: "op", Container: "manager", Terminations: oom("manager", 2*time.Hour)}
	if got := checks(Evaluate([]Target{mem}, nil, nil, th)); got != "info:memory-pressure info:restarts" {
		t.Errorf("OOMKill 2h ago: %q", got)
	}
	longer := th
	longer.Since = Duration(3 * time.Hour)
	if got := checks(Evaluate([]Target{mem}, nil, nil, longer)); got != "critical:memory-pressure warning:restarts" {
		t.Errorf("OOMKill 2h ago, since 3h: %q", got)
	}

	replica := func(id string, leader float64) Target {
		r := crTarget(queue(nil), nil, nil, 0)
		r.ID, r.Cur.Leader, r.Pod = id, map[string]float64{"l": leader}, &Pod{Namespace: "ns", Name: id}
		return r
	}
	// leaders evaluates the targets as the replicas of deployment/op in namespace ns, each
	// with its leadership, as pkg/view/report groups them.
	leaders := func(holders []model.Holder, ts ...Target) []Finding {
		var reps []model.Replica
		for _, t := range ts {
			reps = append(reps, model.ReplicaOf(t.ID, "", "ns", t.ID, "deployment/op", t.Cur))
		}
		return Evaluate(ts, model.Elections(reps, holders), nil, th)
	}
	if got := checks(leaders(nil, replica("a", 1), replica("b", 0))); got != "" {
		t.Errorf("one leader: %q", got)
	}
	fs = leaders(nil, replica("a", 1), replica("b", 1))
	if got := checks(fs); got != "critical:leader-election" {
		t.Errorf("two leaders: %q", got)
	} else if fs[0].Target != "ns/deployment/op" || fs[0].Summary != "2 of 2 replicas of deployment/op in namespace ns claim to lead" {
		t.Errorf("two leaders: %+v", fs[0])
	}
	if got := checks(leaders(nil, replica("a", 0), replica("b", 0))); got != "warning:leader-election" {
		t.Errorf("no leader: %q", got)
	}
	follower := replica("b", 0)
	follower.Cur.Queues = nil
	follower.Queues = nil
	if got := checks(leaders(nil, replica("a", 1), follower)); got != "info:no-workqueue-metrics" {
		t.Errorf("a follower without queues: %q", got)
	}
	// Alone, a process without queues that stands by for all its leases says so; one that
	// leads any of them is the leader (health.Leadership), and its missing queues are a fault.
	follower.Cur.Leader = map[string]float64{"l": 0, "webhooks": 0}
	if got := checks(Evaluate([]Target{follower}, nil, nil, th)); got != "info:no-workqueue-metrics" {
		t.Errorf("alone, standing by for two leases: %q", got)
	}
	follower.Cur.Leader = map[string]float64{"l": 0, "webhooks": 1}
	if got := checks(Evaluate([]Target{follower}, nil, nil, th)); got != "warning:no-workqueue-metrics" {
		t.Errorf("alone, leading one of two leases: %q", got)
	}
	// A controller-runtime standby exports no leader series either: another replica leads.
	follower.Cur.Leader = nil
	if got := checks(leaders(nil, replica("a", 1), follower)); got != "info:no-workqueue-metrics" {
		t.Errorf("a standby without any series: %q", got)
	}
	// When no replica exports the series, the Lease tells the leader, and so the standby; the
	// Lease of another namespace does not.
	leader := replica("a", 0)
	leader.Cur.Leader = nil
	if got := checks(leaders([]model.Holder{{Namespace: "other", Lease: "op-lock", Identity: "a_1"}}, leader, follower)); got != "warning:no-workqueue-metrics" {
		t.Errorf("a standby without a known leader: %q", got)
	}
	fs = leaders([]model.Holder{{Namespace: "ns", Lease: "op-lock", Identity: "a_1"}}, leader, follower)
	if got := checks(fs); got != "info:no-workqueue-metrics" || !strings.Contains(fs[0].Summary, "whose leader is a,") {
		t.Errorf("a standby of the Lease holder: %q %+v", got, fs)
	}

	lag := CacheLag{Target: "ns/op:8080", Kind: ControllerRuntime, Informer: "op/workloads", QueuedItems: 572, LatencyP99: 9, VersionsBehind: 300}
	if got := checks(Evaluate(nil, nil, []CacheLag{lag, {QueuedItems: 0, LatencyP99: 0.01, VersionsBehind: nan}}, th)); got != "warning:cache-sync-lag" {
		t.Errorf("cache lag: %q", got)
	}
	if got := checks(Evaluate([]Target{{ID: "x", ScrapeError: "401"}}, nil, nil, th)); got != "warning:scrape-failed" {
		t.Errorf("scrape failed: %q", got)
	}
}

// Causes outrank symptoms: throttling explains the saturation and backlog it causes.
func TestSortPutsCausesFirst(t *testing.T) {
	fs := []Finding{
		newFinding("backlog-growing", ClientGo, "t", "q", ""),
		newFinding("workers-saturated", ClientGo, "t", "q", ""),
		newFinding("client-throttling", ClientGo, "t", "", ""),
		newFinding("stuck-worker", ClientGo, "t", "q", ""),
		newFinding("cache-sync-lag", ClientGo, "t", "", ""),
	}
	Sort(fs)
	if got := checks(fs); got != "critical:stuck-worker warning:client-throttling warning:cache-sync-lag warning:workers-saturated warning:backlog-growing" {
		t.Errorf("order: %s", got)
	}
}

// The real kube-controller-manager and kube-apiserver at rest, sampled 10 s apart, raise nothing.
func TestControlPlaneAtRestRaisesNothing(t *testing.T) {
	for _, name := range []string{"kube-controller-manager", "kube-apiserver"} {
		a, b := load(t, name+"-1.prom.gz"), load(t, name+"-2.prom.gz")
		target := Target{ID: name, Kind: KindOf(b, nil), Prev: a, Cur: b, Window: 10 * time.Second,
			Queues: health.Queues(name, a, b, 10*time.Second)}
		if fs := Evaluate([]Target{target}, nil, nil, DefaultThresholds()); len(fs) > 0 {
			t.Errorf("%s at rest: %s: %s", name, checks(fs), fs[0].Summary)
		}
		lifetime := Target{ID: name, Kind: KindOf(b, nil), Cur: b, Queues: health.Queues(name, nil, b, 0)}
		if fs := Evaluate([]Target{lifetime}, nil, nil, DefaultThresholds()); len(fs) > 0 {
			t.Errorf("%s at rest, one sample: %s: %s", name, checks(fs), fs[0].Summary)
		}
	}
}

func load(t *testing.T, file string) *health.Snapshot {
	t.Helper()
	return health.FromFamilies(testpages.Parse(t, file, health.Wanted).Families, time.Time{})
}

func TestCatalogIsComplete(t *testing.T) {
	want := []string{"scrape-failed", "no-workqueue-metrics", "backlog-growing", "backlog-high", "workers-saturated", "slow-reconcile",
		"stuck-worker", "retry-storm", "hot-loop", "client-throttling", "api-errors", "cache-sync-lag",
		"memory-pressure", "restarts", "leader-election", "reconcile-panics", "metric-type", "warm-standby", "reconcile-timeouts", "persistent-failures", "lifetime-failures",
		"server-throttling", "webhook-latency", "webhook-slows-writes", "flowschema-waits", "request-latency",
		"priority-starvation", "under-provisioned", "queue-wait-slo", "spec-latency-slo", "stale-sync-skips", "not-syncing", "workers-blocked"}
	codes := map[string]bool{}
	for _, c := range want {
		d, ok := Lookup(c)
		if !ok || d.Title == "" || d.Explanation == "" || d.Severity.Rank() > 2 {
			t.Errorf("catalog entry %q: %+v", c, d)
		}
		if codes[d.Code] {
			t.Errorf("code %s used twice", d.Code)
		}
		codes[d.Code] = true
	}
	if len(Catalog()) != len(want) {
		t.Errorf("catalog has %d entries, want %d", len(Catalog()), len(want))
	}
}

func TestThresholdOverrides(t *testing.T) {
	th := DefaultThresholds()
	if err := th.Set("stuckAfter=2m"); err != nil || th.StuckAfter.String() != "2m0s" {
		t.Errorf("stuckAfter: %v %v", th.StuckAfter, err)
	}
	if err := th.Set("errorRatio=0.2"); err != nil || th.ErrorRatio != 0.2 {
		t.Errorf("errorRatio: %v %v", th.ErrorRatio, err)
	}
	for _, bad := range []string{"nope=1", "stuckAfter", "stuckAfter=soon", "errorRatio=x"} {
		if err := th.Set(bad); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
	f := filepath.Join(t.TempDir(), "th.yaml")
	os.WriteFile(f, []byte("backlogDepth: 5\nslowWork: 250ms\n"), 0o600)
	if err := th.LoadFile(f); err != nil || th.BacklogDepth != 5 || th.SlowWork.String() != "250ms" {
		t.Errorf("file: %+v %v", th, err)
	}
	os.WriteFile(f, []byte("typo: 5\n"), 0o600)
	if err := th.LoadFile(f); err == nil {
		t.Error("an unknown field must be an error")
	}
}

// docs/guide/checks.md, written by hand, says when each check fires: it has a row for every
// finding with its code and check, and names every threshold.
func TestGuideListsEveryFinding(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "guide", "checks.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range Catalog() {
		if !strings.Contains(string(b), "| "+d.Code+" | `"+d.Check+"` |") {
			t.Errorf("docs/guide/checks.md has no row for %s %s", d.Code, d.Check)
		}
	}
	for _, name := range ThresholdNames() {
		if !strings.Contains(string(b), "`"+name+"`") {
			t.Errorf("docs/guide/checks.md does not name the threshold %s", name)
		}
	}
}

// A backing-off controller: 4 reconciles in the window are too few for a ratio, but all of them
// failed: some objects keep failing (not a storm: 0.4 a second). The lifetime counts must not
// be read as a rate (no hot loop from 396 reconciles "in" 10 s).
func TestBackingOffControllerIsNoStormNorHotLoop(t *testing.T) {
	tg := crTarget(queue(func(q *health.QueueStats) { q.WorkP50 = 0.0001 }),
		map[string]float64{"error": 196, "requeue": 196}, map[string]float64{"error": 200, "requeue": 196}, 200)
	tg.Queues[0].ReconcileErrors = 4
	tg.Queues[0].LifetimeReconciles, tg.Queues[0].LifetimeReconcileErrors = 396, 200
	fs := Evaluate([]Target{tg}, nil, nil, DefaultThresholds())
	if got := checks(fs); got != "warning:persistent-failures" {
		t.Fatalf("got %q", got)
	}
	if !strings.Contains(fs[0].Summary, "4 of 4 reconciles failed in the last 10s, 200 since the process started") ||
		!strings.Contains(fs[0].Summary, "which ones is unknown") {
		t.Errorf("summary: %s", fs[0].Summary)
	}
	// The objects were read and none says it fails: the finding says what was read, never that
	// it was not.
	tg.Objects = failingView(tg.ID)
	tg.Objects.Kinds[0].Failed, tg.Objects.Kinds[0].Reasons, tg.Objects.Kinds[0].Namespace = 0, nil, "ns"
	tg.Objects.Kinds[0].BehindSpec, tg.Objects.Kinds[0].BehindSpecExamples = 2, []string{"ns/a", "ns/b"}
	fs = Evaluate([]Target{tg}, nil, nil, DefaultThresholds())
	if len(fs) != 1 || strings.Contains(fs[0].Summary, "not read") ||
		!strings.Contains(fs[0].Summary, "the status of its 11 Workload objects read in namespace ns names none failed; 2 behind their spec: ns/a, ns/b") {
		t.Errorf("objects read, none failed: %+v", fs)
	}
}

// Terminal errors, which controller-runtime does not retry, are named in a retry storm.
func TestRetryStormNamesTerminalErrors(t *testing.T) {
	tg := crTarget(queue(nil), map[string]float64{"error": 0}, map[string]float64{"error": 20}, 20)
	tg.Cur.Controllers["ctrl"].TerminalErrors = 5
	fs := Evaluate([]Target{tg}, nil, nil, DefaultThresholds())
	if checks(fs) != "warning:retry-storm" {
		t.Fatalf("got %q", checks(fs))
	}
	found := false
	for _, e := range fs[0].Evidence {
		found = found || (e.Name == "terminal errors (not retried)" && e.Value == "5")
	}
	if !found {
		t.Errorf("evidence: %+v", fs[0].Evidence)
	}
}

// Reconciles cut off by ReconciliationTimeout in the window are a warning of their own; with
// one sample the count since the process started is info.
func TestReconcileTimeouts(t *testing.T) {
	page := func(timeouts float64) *health.Snapshot {
		return health.FromFamilies(testpages.ParseText(t, fmt.Sprintf(`workqueue_depth{name="c",controller="c"} 0
controller_runtime_reconcile_total{controller="c",result="success"} 100
controller_runtime_reconcile_timeouts_total{controller="c"} %g
`, timeouts)), time.Time{})
	}
	tg := Target{ID: "t", Kind: ControllerRuntime, Prev: page(2), Cur: page(5), Window: 5 * time.Second}
	fs := Evaluate([]Target{tg}, nil, nil, DefaultThresholds())
	if checks(fs) != "warning:reconcile-timeouts" || !strings.Contains(fs[0].Summary, "3 reconciles of c ran past ReconciliationTimeout") {
		t.Errorf("window: %q %+v", checks(fs), fs)
	}
	if got := checks(Evaluate([]Target{{ID: "t", Kind: ControllerRuntime, Prev: page(5), Cur: page(5), Window: 5 * time.Second}}, nil, nil, DefaultThresholds())); got != "" {
		t.Errorf("no new timeouts: %q", got)
	}
	if got := checks(Evaluate([]Target{{ID: "t", Kind: ControllerRuntime, Cur: page(5)}}, nil, nil, DefaultThresholds())); got != "info:reconcile-timeouts" {
		t.Errorf("one sample: %q", got)
	}
}

// A past incident: 15 % of 100,000 reconciles failed long ago, and now 1 conflict in 3
// reconciles in the window. The lifetime counts are context, not a retry storm.
func TestPastIncidentIsNoRetryStorm(t *testing.T) {
	tg := crTarget(queue(nil), map[string]float64{"error": 15000, "success": 84997}, map[string]float64{"error": 15001, "success": 84999}, 15001)
	tg.Queues[0].ReconcileErrors = 1
	fs := Evaluate([]Target{tg}, nil, nil, DefaultThresholds())
	if got := checks(fs); got != "info:persistent-failures" || !strings.Contains(fs[0].Summary, "too few to judge: read over a longer --interval") {
		t.Fatalf("got %q %+v", got, fs)
	}
	Judge(&tg, DefaultThresholds())
	if tg.Queues[0].Status != health.StatusOK {
		t.Errorf("status %s: an info finding leaves the queue OK", tg.Queues[0].Status)
	}
}

// With one sample every counter is a count since the process started: a panic weeks ago,
// the start-up burst of a rate limiter, old reconcile errors are info, never a warning.
func TestOneSampleCountersAreContext(t *testing.T) {
	hist := &health.Histogram{Count: 50, Sum: 30, Buckets: []health.Bucket{{UpperBound: 1, Count: 50}, {UpperBound: math.Inf(1), Count: 50}}}
	cur := &health.Snapshot{
		Queues: map[string]*health.Queue{"ctrl": {Name: "ctrl", Controller: "ctrl"}},
		Controllers: map[string]*health.Controller{"ctrl": {Name: "ctrl", Panics: 1,
			ReconcileTotal: map[string]float64{"error": 50, "success": 50}, ReconcileErrors: 50}},
		Client: health.Client{RateLimiterDuration: hist},
	}
	q := queue(nil)
	q.Window, q.Reconciles, q.ReconcileErrors, q.LifetimeReconciles, q.LifetimeReconcileErrors = 0, 100, 50, 100, 50
	tg := Target{ID: "ns/op:8080", Kind: ControllerRuntime, Cur: cur, Queues: []health.QueueStats{q}}
	fs := Evaluate([]Target{tg}, nil, nil, DefaultThresholds())
	got := checks(fs)
	for _, c := range []string{"info:reconcile-panics", "info:client-throttling", "info:retry-storm"} {
		if !strings.Contains(got, c) {
			t.Errorf("%s missing from %q", c, got)
		}
	}
	if Worst(fs) != Info {
		t.Errorf("one sample raised %s: %s", Worst(fs), got)
	}
}

// A page whose families carry a type the model cannot read gets one warning naming each of
// them, on top of what the rest of the page says; a page without any gets none.
func TestMistypedFamiliesAreAFinding(t *testing.T) {
	tg := crTarget(queue(nil), map[string]float64{"success": 10}, map[string]float64{"success": 20}, 0)
	if fs := Evaluate([]Target{tg}, nil, nil, DefaultThresholds()); len(fs) != 0 {
		t.Fatalf("healthy target: %s", checks(fs))
	}
	tg.Cur.Mistyped = []health.Mistyped{
		{Family: "workqueue_depth", Declared: "histogram", Read: "gauge, counter or untyped"},
		{Family: "workqueue_work_duration_seconds", Declared: "summary", Read: "histogram"},
	}
	fs := Evaluate([]Target{tg}, nil, nil, DefaultThresholds())
	if got := checks(fs); got != "warning:metric-type" {
		t.Fatalf("got %q", got)
	}
	f := fs[0]
	if f.Code != "CD103" || len(f.Evidence) != 2 || f.Evidence[1].Value != "TYPE summary, read as histogram" ||
		!strings.Contains(f.Summary, "workqueue_depth (histogram), workqueue_work_duration_seconds (summary)") {
		t.Errorf("finding: %+v", f)
	}
}
