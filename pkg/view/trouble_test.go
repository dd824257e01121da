package view

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
)

// finding is a finding of check (code and severity as the catalog has them) on target and queue.
func finding(t *testing.T, check, target, queue string, ev ...findings.Evidence) findings.Finding {
	t.Helper()
	for _, d := range findings.Catalog() {
		if d.Check == check {
			return findings.Finding{Code: d.Code, Check: check, Severity: d.Severity, Title: d.Title, Target: target, Queue: queue,
				Evidence: ev, Recommendation: d.Recommendation["default"]}
		}
	}
	t.Fatalf("no check %q", check)
	return findings.Finding{}
}

// queueRow puts a queue's wait and depth in the report's sections 2 and 4.
func queueRow(r *Report, target, queue string, p99, depth float64) {
	r.Backlog = append(r.Backlog, Backlog{Target: target, Queue: queue, Depth: Num(depth)})
	r.Events = append(r.Events, Events{Target: target, Queue: queue, QueueP99Seconds: Num(p99)})
}

func report(fs ...findings.Finding) Report {
	return Report{Window: "30s", Summary: Summary{Targets: 1, Read: 1}, Findings: fs}
}

func only(t *testing.T, r Report) Trouble {
	t.Helper()
	r.Recount()
	if len(r.Summary.InTrouble) != 1 {
		t.Fatalf("in trouble: %+v", r.Summary.InTrouble)
	}
	return r.Summary.InTrouble[0]
}

// A saturated queue the capacity model sizes: what is wrong with its wait and depth, and the
// workers to set, from how many there are to how many meet the target.
func TestSummaryOfASaturatedQueueAdvisesTheWorkers(t *testing.T) {
	const op = "demo/operator-7d9f:8080"
	r := report(finding(t, "workers-saturated", op, "workload"), finding(t, "backlog-growing", op, "workload"))
	queueRow(&r, op, "workload", 9.2, 138)
	two, thirteen := 2.0, 13
	r.Capacity = []Capacity{{Target: op, Queue: "workload", Workers: &two, WorkersNeeded: &thirteen, WorkersHelp: true,
		WorkersFrom: "controller_runtime_max_concurrent_reconciles"}}
	got := only(t, r)
	if got.Severity != findings.Warning || got.Target != op || got.Queue != "workload" ||
		got.What != "workers saturated, queue p99 9.2s, 138 waiting" || got.Cause != "" ||
		got.Change != "MaxConcurrentReconciles 2 -> 13" || strings.Join(got.Codes, " ") != "CD208 CD211" {
		t.Errorf("%+v", got)
	}
	// More workers that cannot help (something else holds the queue) are not advised.
	r.Capacity[0].WorkersHelp = false
	if got := only(t, r); strings.Contains(got.Change, "->") {
		t.Errorf("workers advised though they cannot help: %+v", got)
	}
}

// A webhook tied to the queue's writes is its cause, and fixing it the change.
func TestSummaryNamesTheWebhookThatSlowsTheWrites(t *testing.T) {
	const op = "demo/operator-7d9f:8080"
	r := report(finding(t, "workers-saturated", op, "workload"),
		finding(t, "webhook-slows-writes", op, "workload",
			findings.Evidence{Name: "webhook", Value: "slow-pods.example.com in slow-pods"},
			findings.Evidence{Name: "webhook latency p90 on apiserver", Value: "2.1s (in the 1s-2.5s bucket)"}))
	queueRow(&r, op, "workload", 9.2, 138)
	got := only(t, r)
	if got.What != "workers saturated, queue p99 9.2s, 138 waiting" || got.Cause != "admission webhook slow-pods.example.com, p90 2.1s" ||
		!strings.HasPrefix(got.Change, "fix admission webhook slow-pods.example.com first") || got.Codes[0] != "CD220" {
		t.Errorf("%+v", got)
	}
}

// A well-known controller's queue: the flag that sets its workers, from its default to what
// the model needs; a knob with no advised value is the recommendation's first sentence.
func TestSummaryOfKubeControllerManagerNamesItsFlag(t *testing.T) {
	const kcm = "kube-system/kube-controller-manager-node-1:10257"
	f := finding(t, "workers-saturated", kcm, "replicaset")
	f.Knob = &knobs.Advice{Controller: "kube-controller-manager", Flags: []knobs.Setting{{Flag: "--concurrent-replicaset-syncs", Default: "5"}}}
	r := report(f)
	queueRow(&r, kcm, "replicaset", 4, 300)
	five, nine := 5.0, 9
	r.Capacity = []Capacity{{Target: kcm, Queue: "replicaset", Workers: &five, WorkersNeeded: &nine, WorkersHelp: true,
		WorkersFrom: "the default of --concurrent-replicaset-syncs"}}
	if got := only(t, r); got.Change != "--concurrent-replicaset-syncs 5 -> 9" {
		t.Errorf("%+v", got)
	}
	r.Capacity = nil
	f.Recommendation = "Raise --concurrent-replicaset-syncs of kube-controller-manager (default 5) if the nodes can take it. More text."
	r.Findings = []findings.Finding{f}
	if got := only(t, r); got.Change != "Raise --concurrent-replicaset-syncs of kube-controller-manager if the nodes can take it" {
		t.Errorf("%+v", got)
	}
}

// Objects that fail are the cause, from their status or from the Warning events that name
// them; the key figure is the share of reconciles that fail.
func TestSummaryNamesTheFailingObjects(t *testing.T) {
	const op = "widgets-system/widgets-controller:8080"
	storm := finding(t, "retry-storm", op, "widget",
		findings.Evidence{Name: "error ratio", Value: "20.1%", Threshold: "> 10%"},
		findings.Evidence{Name: "failed widgets.example.com", Value: "3 of 40 in all namespaces"},
		findings.Evidence{Name: "Ready=False BackendUnavailable", Value: "2: shop/cart, shop/checkout"},
		findings.Evidence{Name: "Stalled=True InvalidSpec", Value: "1: shop/legacy"},
		findings.Evidence{Name: "retries/s", Value: "20.90/s"})
	got := only(t, report(storm))
	if got.What != "20.1% of reconciles fail" || got.Cause != "3 widgets.example.com fail: BackendUnavailable (2), InvalidSpec (1)" {
		t.Errorf("%+v", got)
	}
	const kcm = "kube-system/kube-controller-manager-node-1:10257"
	quota := finding(t, "persistent-failures", kcm, "replicaset",
		findings.Evidence{Name: "Warning event FailedCreate", Value: `ReplicaSet shop/web x13, last 2s before the last sample: "exceeded quota"`})
	if got := only(t, report(quota)); got.Cause != "Warning events FailedCreate: ReplicaSet shop/web x13" || got.What != "objects keep failing" {
		t.Errorf("%+v", got)
	}
	// A finding that names no cause gets none.
	if got := only(t, report(finding(t, "workers-saturated", op, "widget"))); got.Cause != "" {
		t.Errorf("a cause no finding names: %+v", got)
	}
}

// A target-wide cause (the client's rate limiter) is said on the target's queue in trouble,
// not as an entry of its own; a target-wide symptom stays one.
func TestSummaryPutsTargetCausesOnItsQueues(t *testing.T) {
	const op = "demo/operator:8080"
	r := report(finding(t, "workers-saturated", op, "workload"),
		finding(t, "client-throttling", op, "", findings.Evidence{Name: "mean rate-limiter wait", Value: "1.2s"}),
		finding(t, "memory-pressure", op, "", findings.Evidence{Name: "last termination reason", Value: "OOMKilled"}))
	r.Recount()
	got := r.Summary.InTrouble
	if len(got) != 2 || got[0].Queue != "" || got[0].What != "memory near the limit (OOMKilled)" ||
		got[1].Queue != "workload" || got[1].Cause != "the client's rate limiter, mean wait 1.2s (the whole target)" {
		t.Errorf("%+v", got)
	}
	// The change is the cause's: more workers would only wait longer in the rate limiter.
	if len(got) == 2 && !strings.Contains(got[1].Change, "QPS and Burst") {
		t.Errorf("the change for a queue the client's rate limiter holds back: %q", got[1].Change)
	}
}

// A healthy run says so with what was checked, and counts no controller in trouble.
func TestSummaryOfAHealthyRun(t *testing.T) {
	r := Report{Window: "30s", Summary: Summary{Targets: 3, Read: 3}, Findings: []findings.Finding{}}
	for i := range 12 {
		queueRow(&r, fmt.Sprintf("ns/op-%d:8080", i%3), fmt.Sprintf("q%d", i), 0.01, 0)
	}
	r.Recount()
	s := r.Summary
	if s.Healthy != "3 targets, 12 queues read over 30s; no warnings" || s.InTrouble == nil || len(s.InTrouble) != 0 ||
		s.Verdict != "healthy: the controllers keep up" {
		t.Errorf("%+v", s)
	}
	r.Findings = []findings.Finding{finding(t, "warm-standby", "ns/op-0:8080", "q0")}
	r.Window = Lifetime
	if r.Recount(); r.Summary.Healthy != "3 targets, 12 queues read since each process started; no warnings (1 info finding)" {
		t.Errorf("%+v", r.Summary)
	}
	if r.Summary.Read = 0; verdict(r.Summary) != "nothing could be read" || healthy(r.Summary, 0, "30s") != "" {
		t.Errorf("nothing read: %+v", r.Summary)
	}
}

// Every controller in trouble is in the data, worst first, and the verdict counts them.
func TestSummaryCountsEveryControllerInTrouble(t *testing.T) {
	r := report()
	for i := range 7 {
		target := fmt.Sprintf("ns/op-%d:8080", i)
		r.Findings = append(r.Findings, finding(t, "workers-saturated", target, "q"))
		queueRow(&r, target, "q", float64(i+1), 10)
	}
	r.Findings = append(r.Findings, finding(t, "stuck-worker", "ns/op-9:8080", "q"))
	r.Recount()
	s := r.Summary
	if len(s.InTrouble) != 8 || s.InTrouble[0].Severity != findings.Critical || s.InTrouble[1].Target != "ns/op-6:8080" ||
		s.InTrouble[7].Target != "ns/op-0:8080" || s.Verdict != "8 controllers in trouble, with 1 critical finding and 7 warnings" {
		t.Errorf("%+v", s)
	}
}

// Findings are ranked by impact: severity, causes before symptoms, then the longer wait.
func TestRankFindingsByImpact(t *testing.T) {
	r := report(finding(t, "workers-saturated", "a:8080", "q"), finding(t, "workers-saturated", "b:8080", "q"),
		finding(t, "webhook-slows-writes", "c:8080", "q"), finding(t, "stuck-worker", "d:8080", "q"),
		finding(t, "restarts", "b:8080", ""))
	queueRow(&r, "a:8080", "q", 1, 5)
	queueRow(&r, "b:8080", "q", 30, 5)
	RankFindings(r, r.Findings)
	var got []string
	for _, f := range r.Findings {
		got = append(got, f.Check+"@"+f.Target)
	}
	want := "stuck-worker@d:8080 webhook-slows-writes@c:8080 restarts@b:8080 workers-saturated@b:8080 workers-saturated@a:8080"
	if strings.Join(got, " ") != want {
		t.Errorf("order\n %s\nwant\n %s", strings.Join(got, " "), want)
	}
}

func TestFirstSentence(t *testing.T) {
	for in, want := range map[string]string{
		"Raise MaxConcurrentReconciles (controller.Options{MaxConcurrentReconciles: N} in x), if independent; or cheaper.": "Raise MaxConcurrentReconciles, if independent",
		"Read the errors. Then more.":                                        "Read the errors",
		"Raise the rate limits (QPS and Burst, e.g. 50 and 100). Then more.": "Raise the rate limits",
		"Unbalanced (bracket here.":                                          "Unbalanced (bracket here",
	} {
		if got := firstSentence(in); got != want {
			t.Errorf("firstSentence(%q) = %q, want %q", in, got, want)
		}
	}
}

// Findings an ignore file or annotation left out are named in the verdict with their count
// when they would have changed it (warning or critical); an info finding left out would not.
func TestVerdictNamesWhatWasSuppressed(t *testing.T) {
	op := "ns/op-0:8080"
	r := Report{Window: "30s", Summary: Summary{Targets: 1, Read: 1}, Findings: []findings.Finding{}}
	r.Suppressions = &Suppressions{Findings: []Suppressed{
		{Finding: finding(t, "workers-saturated", op, "q0"), Reason: "capacity raised", Source: ".ctrldiag-ignore.yaml:4"},
		{Finding: finding(t, "backlog-high", op, "q0"), Reason: "capacity raised", Source: ".ctrldiag-ignore.yaml:9"},
		{Finding: finding(t, "warm-standby", op, "q1"), Reason: "standby", Source: ".ctrldiag-ignore.yaml:12"},
		{Finding: finding(t, "retry-storm", op, "q2"), Reason: "known", Source: "annotation ctrldiag.io/ignore on pod ns/op-0"},
	}}
	r.Recount()
	want := "healthy: the controllers keep up (3 findings suppressed by .ctrldiag-ignore.yaml, annotation ctrldiag.io/ignore)"
	if r.Summary.Verdict != want || r.Summary.Suppressed != 3 {
		t.Errorf("verdict %q (%d suppressed), want %q", r.Summary.Verdict, r.Summary.Suppressed, want)
	}
	r.Suppressions.Findings = r.Suppressions.Findings[2:3] // the info finding alone
	if r.Recount(); r.Summary.Verdict != "healthy: the controllers keep up" || r.Summary.SuppressedBy != nil {
		t.Errorf("an info finding left out changes the verdict: %q, by %q", r.Summary.Verdict, r.Summary.SuppressedBy)
	}
}

// The verdict counts what there is: a run with only a critical finding has no "0 warnings".
func TestVerdictCountsOnlyWhatThereIs(t *testing.T) {
	s := Summary{Targets: 1, Read: 1, Critical: 1, InTrouble: []Trouble{{Target: "ns/op-0:8080"}}}
	if got, want := verdict(s), "1 controller in trouble, with 1 critical finding"; got != want {
		t.Errorf("verdict %q, want %q", got, want)
	}
	s.Warning = 2
	if got, want := verdict(s), "1 controller in trouble, with 1 critical finding and 2 warnings"; got != want {
		t.Errorf("verdict %q, want %q", got, want)
	}
}

// An informer named for its controller is that controller's cache: its lag and the
// controller's slow reconciles are one controller in trouble.
func TestSummaryCountsACacheWithItsController(t *testing.T) {
	const op = "demo/operator:8080"
	r := report(finding(t, "cache-sync-lag", op, "workload/workloads.demo.ctrldiag.dev"),
		finding(t, "slow-reconcile", op, "workload"))
	if got := only(t, r); got.Queue != "workload" || len(got.Codes) != 2 {
		t.Errorf("%+v", got)
	}
}

// What the log says failed on a stuck queue is context, not its cause: the failures may have
// stopped because the worker blocked.
func TestSummaryGivesTheLogOfAStuckQueueAsContext(t *testing.T) {
	got := only(t, report(finding(t, "stuck-worker", "ns/op-0:8080", "settings",
		findings.Evidence{Name: "log: Reconciler error", Value: `ns/settings-004 x17, last 20s before the last sample: "boom"`})))
	if got.Cause != "" || !strings.Contains(got.Context, "ns/settings-004 x17") {
		t.Errorf("cause %q, context %q", got.Cause, got.Context)
	}
}

// A controller that syncs on a period and stopped: when it last synced, and its period.
func TestSummaryOfAControllerThatStoppedSyncing(t *testing.T) {
	f := finding(t, "not-syncing", "dns/external-dns-5c7:7979", "",
		findings.Evidence{Name: "last successful sync", Value: "none since the process started 19s ago", Threshold: ">= 3 periods: 9s"},
		findings.Evidence{Name: "period", Value: "3s (--interval in the container's arguments)"},
		findings.Evidence{Name: "last sync attempted", Value: "none since the process started"})
	got := only(t, report(f))
	if got.What != "stopped syncing" || got.Cause != "last sync: none since the process started 19s ago, period 3s" {
		t.Errorf("%+v", got)
	}
}
