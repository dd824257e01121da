package findings

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/testpages"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// backs are the checks a status needs behind it: a queue shows STUCK only with a stuck-worker
// finding, and so on.
var backs = map[health.Status][]string{
	health.StatusStuck:     {"stuck-worker"},
	health.StatusFailing:   {"retry-storm", "persistent-failures", "lifetime-failures"},
	health.StatusBacklog:   {"backlog-growing", "backlog-high"},
	health.StatusSaturated: {"workers-saturated"},
	health.StatusSlow:      {"slow-reconcile"},
	health.StatusRetrying:  {"retry-storm", "hot-loop"},
}

// disagreements lists the queues whose status and findings tell different stories: a queue
// with a warning or critical queue finding shown OK, or a status no finding backs.
func disagreements(t Target, fs []Finding) []string {
	var out []string
	for _, q := range t.Queues {
		var checks []string
		serious := false
		for _, f := range fs {
			if f.Target == t.ID && f.Queue == q.Queue && f.status != "" {
				checks = append(checks, f.Check)
				serious = serious || f.Severity == Warning || f.Severity == Critical
			}
		}
		switch {
		case q.Status == health.StatusOK && serious:
			out = append(out, fmt.Sprintf("%s/%s is OK but has %v", t.ID, q.Queue, checks))
		case backs[q.Status] != nil && !anyOf(checks, backs[q.Status]):
			out = append(out, fmt.Sprintf("%s/%s is %s but has only %v", t.ID, q.Queue, q.Status, checks))
		}
	}
	return out
}

func anyOf(have, want []string) bool {
	for _, h := range have {
		for _, w := range want {
			if h == w {
				return true
			}
		}
	}
	return false
}

// judged builds a target from two snapshots (prev nil: one sample) and judges its queues.
func judged(id string, prev, cur *health.Snapshot, window time.Duration) Target {
	if prev == nil {
		window = 0
	}
	t := Target{ID: id, Kind: KindOf(cur, nil), Prev: prev, Cur: cur, Window: window, Queues: health.Queues(id, prev, cur, window)}
	Judge(&t, DefaultThresholds())
	return t
}

// Every captured page, over its window and over its lifetime: the STATUS of every queue agrees
// with the findings of the same thresholds.
func TestStatusAgreesWithFindingsOnCapturedPages(t *testing.T) {
	pairs := [][2]string{
		{"controller-runtime-1.prom", "controller-runtime-2.prom"},
		{"kube-controller-manager-1.prom.gz", "kube-controller-manager-2.prom.gz"},
		{"kube-apiserver-1.prom.gz", "kube-apiserver-2.prom.gz"},
	}
	nonOK := 0
	for _, p := range pairs {
		a, b := load(t, p[0]), load(t, p[1])
		for _, tg := range []Target{judged(p[0], a, b, 10*time.Second), judged(p[1], nil, b, 0), judged("large", nil, load(t, "kube-apiserver-large.prom.gz"), 0)} {
			fs := Evaluate([]Target{tg}, nil, nil, DefaultThresholds())
			for _, d := range disagreements(tg, fs) {
				t.Error(d)
			}
			for _, q := range tg.Queues {
				if q.Status != health.StatusOK {
					nonOK++
				}
			}
		}
	}
	if nonOK == 0 {
		t.Error("no queue of the captured pages is judged: the agreement was not put to the test")
	}
}

// Each status comes from its finding, with the finding's summary and code as the reason.
func TestJudgeSetsTheStatusOfTheFinding(t *testing.T) {
	n := math.NaN()
	base := health.QueueStats{Queue: "q", Depth: 0, DepthBefore: n, QueueP99: n, WorkP99: n, QueueP50: n, WorkP50: n,
		Longest: 0, LongestBefore: n, ErrorRatio: n, RetryRatio: n, MaxWorkers: n, ActiveWorkers: n, Reconciles: n, ReconcileErrors: n,
		LifetimeReconciles: n, LifetimeReconcileErrors: n, AddsPerSecond: n, RetriesPerSecond: n, Waits: 50, Worked: 50, Status: health.StatusOK}
	tests := []struct {
		name string
		edit func(*health.QueueStats)
		want health.Status
		code string
	}{
		{"healthy", func(*health.QueueStats) {}, health.StatusOK, ""},
		{"long item", func(s *health.QueueStats) { s.LongestBefore, s.Longest = 115, 120 }, health.StatusStuck, "CD201"},
		{"deep", func(s *health.QueueStats) { s.Depth = 150 }, health.StatusBacklog, "CD219"},
		{"rising", func(s *health.QueueStats) { s.Depth, s.DepthBefore = 20, 5 }, health.StatusBacklog, "CD211"},
		{"barely rising", func(s *health.QueueStats) { s.Depth, s.DepthBefore = 10, 9 }, health.StatusOK, ""},
		{"waiting longer than working", func(s *health.QueueStats) { s.Depth, s.QueueP99, s.WorkP99 = 3, 2, 0.1 }, health.StatusSaturated, "CD208"},
		{"slow work", func(s *health.QueueStats) { s.WorkP99, s.WorkP50 = 30, 10 }, health.StatusSlow, "CD209"},
		{"retries alone (periodic requeues)", func(s *health.QueueStats) { s.AddsPerSecond, s.RetriesPerSecond, s.RetryRatio = 20, 15, 0.75 }, health.StatusOK, ""},
		{"gone stays gone", func(s *health.QueueStats) { s.Status, s.LongestBefore, s.Longest = health.StatusGone, 115, 120 }, health.StatusGone, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := base
			tt.edit(&q)
			tg := Target{ID: "t", Cur: &health.Snapshot{}, Prev: &health.Snapshot{}, Window: 5 * time.Second, Queues: []health.QueueStats{q}}
			Judge(&tg, DefaultThresholds())
			got := tg.Queues[0]
			if got.Status != tt.want || !strings.Contains(got.Reason, tt.code) || (tt.code != "" && !strings.Contains(got.Reason, "("+tt.code+")")) {
				t.Errorf("status %s (%q), want %s with %s", got.Status, got.Reason, tt.want, tt.code)
			}
		})
	}
}

// A backing-off controller reconciles rarely: 4 failures in the window are too few for a
// ratio, but all of them failed, so the process's 200 failed reconciles of 200 make the
// queue FAILING.
func TestFailingJudgesLifetimeWhenTheWindowIsThin(t *testing.T) {
	page := func(errs float64) *health.Snapshot {
		return health.FromFamilies(testpages.ParseText(t, fmt.Sprintf(`workqueue_adds_total{name="c",controller="c"} %[1]g
workqueue_depth{name="c",controller="c",priority=""} 0
controller_runtime_reconcile_total{controller="c",result="error"} %[1]g
controller_runtime_reconcile_total{controller="c",result="success"} 0
controller_runtime_reconcile_errors_total{controller="c"} %[1]g
`, errs)), time.Time{})
	}
	st := judged("t", page(196), page(200), 5*time.Second).Queues
	if len(st) != 1 || st[0].Status != health.StatusFailing || !strings.Contains(st[0].Reason, "since the process started") {
		t.Fatalf("got %+v", st)
	}
	// Two failures in a thin window are too few to say the failures go on.
	st = judged("t", page(198), page(200), 5*time.Second).Queues
	if st[0].Status != health.StatusOK {
		t.Errorf("two failures in the window: %s %s", st[0].Status, st[0].Reason)
	}
	// Without a failure in the window, the past is not judged.
	st = judged("t", page(200), page(200), 5*time.Second).Queues
	if st[0].Status != health.StatusOK {
		t.Errorf("no failure in the window: %s %s", st[0].Status, st[0].Reason)
	}
}

// A warm replica filled its queue from its informers and waits for the lead: info, no backlog,
// status OK. The same queue on a target that holds the lease is a backlog.
func TestWarmStandbyIsNoBacklog(t *testing.T) {
	page := func(leader string) *health.Snapshot {
		return health.FromFamilies(testpages.ParseText(t, `workqueue_depth{name="c",controller="c",priority="0"} 150
workqueue_adds_total{name="c",controller="c"} 150
controller_runtime_active_workers{controller="c"} 0
controller_runtime_max_concurrent_reconciles{controller="c"} 2
controller_runtime_reconcile_total{controller="c",result="success"} 0
`+leader), time.Time{})
	}
	standby := judged("standby", page(""), page(""), 5*time.Second)
	fs := Evaluate([]Target{standby}, nil, nil, DefaultThresholds())
	if got := checks(fs); got != "info:warm-standby" || standby.Queues[0].Status != health.StatusOK {
		t.Errorf("standby: %q, status %s", got, standby.Queues[0].Status)
	}
	// A warm replica whose controller exports no reconcile counts yet is one too.
	bare := health.FromFamilies(testpages.ParseText(t, `workqueue_depth{name="c",controller="c",priority="0"} 150
controller_runtime_max_concurrent_reconciles{controller="c"} 2
`), time.Time{})
	if got := checks(Evaluate([]Target{judged("bare", bare, bare, 5*time.Second)}, nil, nil, DefaultThresholds())); got != "info:warm-standby" {
		t.Errorf("standby without reconcile counts: %q", got)
	}
	// A controller-runtime (0.22+) warm replica as it really is: the queue, filled by the
	// watches, and no controller_runtime_* series at all, as the controller has not started.
	warm := health.FromFamilies(testpages.ParseText(t, `workqueue_depth{controller="c",name="c",priority="-100"} 8
workqueue_adds_total{controller="c",name="c"} 8
workqueue_retries_total{controller="c",name="c"} 0
workqueue_unfinished_work_seconds{controller="c",name="c"} 0
workqueue_longest_running_processor_seconds{controller="c",name="c"} 0
# TYPE workqueue_work_duration_seconds histogram
workqueue_work_duration_seconds_bucket{controller="c",name="c",le="+Inf"} 0
workqueue_work_duration_seconds_sum{controller="c",name="c"} 0
workqueue_work_duration_seconds_count{controller="c",name="c"} 0
`), time.Time{})
	if got := checks(Evaluate([]Target{judged("warm", warm, warm, 5*time.Second)}, nil, nil, DefaultThresholds())); got != "info:warm-standby" {
		t.Errorf("warm replica without controller series: %q", got)
	}
	// The same queue without the controller label is a client-go queue: not a standby.
	plain := health.FromFamilies(testpages.ParseText(t, `workqueue_depth{name="c"} 8
# TYPE workqueue_work_duration_seconds histogram
workqueue_work_duration_seconds_count{name="c"} 0
`), time.Time{})
	if got := checks(Evaluate([]Target{judged("plain", plain, plain, 5*time.Second)}, nil, nil, DefaultThresholds())); got != "" {
		t.Errorf("client-go queue with items: %q", got)
	}
	// Once an item was worked on, it is no standby: its queue is judged as any other.
	worked := health.FromFamilies(testpages.ParseText(t, `workqueue_depth{controller="c",name="c",priority="0"} 150
# TYPE workqueue_work_duration_seconds histogram
workqueue_work_duration_seconds_bucket{controller="c",name="c",le="+Inf"} 3
workqueue_work_duration_seconds_sum{controller="c",name="c"} 0.01
workqueue_work_duration_seconds_count{controller="c",name="c"} 3
`), time.Time{})
	if got := checks(Evaluate([]Target{judged("worked", worked, worked, 5*time.Second)}, nil, nil, DefaultThresholds())); !strings.Contains(got, "warning:backlog-high") {
		t.Errorf("queue worked on, without controller series: %q", got)
	}
	leader := judged("leader", page(`leader_election_master_status{name="l"} 1`+"\n"), page(`leader_election_master_status{name="l"} 1`+"\n"), 5*time.Second)
	fs = Evaluate([]Target{leader}, nil, nil, DefaultThresholds())
	if got := checks(fs); !strings.Contains(got, "warning:backlog-high") || leader.Queues[0].Status != health.StatusBacklog {
		t.Errorf("leader: %q, status %s", got, leader.Queues[0].Status)
	}
}
