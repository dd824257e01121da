package findings

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// The workers of a queue: --workers wins, then the metric, then the knob's flag in the
// container's arguments, then its documented default; unknown without any.
func TestWorkersOf(t *testing.T) {
	kcm := Target{Pod: &Pod{Args: []string{"kube-controller-manager", "--concurrent-deployment-syncs=8"}}}
	for _, tc := range []struct {
		what   string
		t      Target
		queue  string
		metric float64
		n      float64
		from   string
	}{
		{"flag in args", kcm, "deployment", math.NaN(), 8, "--concurrent-deployment-syncs in the container's arguments"},
		{"default", kcm, "replicaset", math.NaN(), 5, "the default of --concurrent-replicaset-syncs"},
		{"metric over args", kcm, "deployment", 3, 3, "controller_runtime_max_concurrent_reconciles"},
		{"--workers over all", Target{Pod: kcm.Pod, Workers: map[string]float64{"deployment": 12}}, "deployment", 3, 12, "--workers"},
		{"no knob for the queue", kcm, "garbage_collector_graph_changes", math.NaN(), math.NaN(), ""},
		{"no pod", Target{}, "deployment", math.NaN(), math.NaN(), ""},
	} {
		n, from := workersOf(tc.t, recognise(tc.t), tc.queue, tc.metric)
		if !(n == tc.n || math.IsNaN(n) && math.IsNaN(tc.n)) || from != tc.from {
			t.Errorf("%s: %v %q, want %v %q", tc.what, n, from, tc.n, tc.from)
		}
	}
}

// A git server that never answers holds both workers of Flux's gitrepository controller until
// each clone times out: 6 items wait at both samples and none leaves the queue in the window,
// so the queue has no wait to quantile, yet each of them waited the whole window. That is
// saturation, a warning; with a worker free, with no item waiting at the start, or over a
// window shorter than saturatedQueueWait, it is not.
func TestWorkersSaturatedWhenNoItemLeftTheQueue(t *testing.T) {
	n := math.NaN()
	stalled := func(mod func(*health.QueueStats)) Target {
		return crTarget(queue(func(q *health.QueueStats) {
			q.Depth, q.DepthBefore, q.ActiveWorkers, q.MaxWorkers = 6, 6, 2, 2
			q.Waits, q.QueueP99, q.QueueP50, q.AddsPerSecond, q.CompletionsPerSecond = 0, n, n, 0, 0
			q.Worked, q.WorkP99, q.WorkP50 = 0, n, n
			q.Longest, q.LongestBefore = 20, 0.5
			if mod != nil {
				mod(q)
			}
		}), map[string]float64{"success": 4}, map[string]float64{"success": 4}, 0)
	}
	fs := Evaluate([]Target{stalled(nil)}, nil, nil, DefaultThresholds())
	var f *Finding
	for i := range fs {
		if fs[i].Check == "workers-saturated" {
			f = &fs[i]
		}
	}
	if f == nil || f.Severity != Warning || !strings.Contains(f.Summary, "none left the queue in the last 10s") {
		t.Fatalf("got %s: %+v", checks(fs), f)
	}
	found := false
	for _, e := range f.Evidence {
		found = found || e.Name == "queue wait" && strings.HasPrefix(e.Value, "at least 10s")
	}
	if !found {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	tg := stalled(nil)
	Judge(&tg, DefaultThresholds())
	if tg.Queues[0].Status != health.StatusSaturated {
		t.Errorf("status %s", tg.Queues[0].Status)
	}

	for name, mod := range map[string]func(*health.QueueStats){
		"a worker free":           func(q *health.QueueStats) { q.ActiveWorkers = 1 },
		"nothing waited at first": func(q *health.QueueStats) { q.DepthBefore = 0 },
		"items left the queue":    func(q *health.QueueStats) { q.Waits, q.QueueP99, q.QueueP50 = 3, 0.2, 0.1 },
	} {
		tg := stalled(mod)
		for _, f := range Evaluate([]Target{tg}, nil, nil, DefaultThresholds()) {
			if f.Check == "workers-saturated" {
				t.Errorf("%s: %s %s", name, f.Severity, f.Summary)
			}
		}
	}
	short := stalled(nil)
	short.Window = 500 * time.Millisecond
	for _, f := range Evaluate([]Target{short}, nil, nil, DefaultThresholds()) {
		if f.Check == "workers-saturated" {
			t.Errorf("a 500ms window: %s %s", f.Severity, f.Summary)
		}
	}
}
