package findings

import (
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// starvedQueue is a priority queue whose 2 workers serve a steady stream of priority-0 items
// (about 20 waiting at both samples, 4 done a second) while 34 items of the initial list
// wait at -100 and do not move, as the reference operator's starved scenario shows.
func starvedQueue(mod func(*health.QueueStats)) health.QueueStats {
	return queue(func(q *health.QueueStats) {
		q.DepthByPriorityBefore = map[string]float64{"0": 20, "-100": 34}
		q.DepthByPriority = map[string]float64{"0": 22, "-100": 34}
		q.DepthBefore, q.Depth = 54, 56
		q.ActiveWorkers, q.MaxWorkers, q.CompletionsPerSecond = 2, 2, 4
		q.QueueP50, q.QueueP99, q.WorkP50, q.WorkP99 = 4, 5.5, 0.5, 0.5
		if mod != nil {
			mod(q)
		}
	})
}

func TestPriorityStarvation(t *testing.T) {
	ok, okAfter := map[string]float64{"success": 0}, map[string]float64{"success": 40}
	th := DefaultThresholds()
	for _, tc := range []struct {
		name string
		q    health.QueueStats
		want string
	}{
		{"low priority stays while priority 0 is served", starvedQueue(nil), "warning:priority-starvation"},
		{"low priority grows too (resyncs keep coming)", starvedQueue(func(q *health.QueueStats) {
			q.DepthByPriority = map[string]float64{"0": 21, "-100": 37}
		}), "warning:priority-starvation"},
		{"no priority-0 item waits at the second sample, but items wait long", starvedQueue(func(q *health.QueueStats) {
			q.DepthByPriority = map[string]float64{"0": 0, "-100": 34}
		}), "warning:priority-starvation"},
		// The readings it must leave to others, or to nobody.
		{"a plain queue", starvedQueue(func(q *health.QueueStats) { q.DepthByPriority, q.DepthByPriorityBefore = nil, nil }),
			"warning:workers-saturated"},
		{"the low priority drains", starvedQueue(func(q *health.QueueStats) {
			q.DepthByPriority = map[string]float64{"0": 22, "-100": 30}
		}), "warning:workers-saturated"},
		{"every priority grows: saturated, not starved", starvedQueue(func(q *health.QueueStats) {
			q.DepthByPriority = map[string]float64{"0": 35, "-100": 40}
			q.Depth = 75
		}), "warning:workers-saturated warning:backlog-growing"},
		{"a worker is free", starvedQueue(func(q *health.QueueStats) { q.ActiveWorkers = 1 }), ""},
		{"nothing done in the window", starvedQueue(func(q *health.QueueStats) {
			q.CompletionsPerSecond, q.QueueP99, q.QueueP50 = 0, nan, nan
		}), ""},
		{"only the low priority has a series", starvedQueue(func(q *health.QueueStats) {
			q.DepthByPriorityBefore = map[string]float64{"-100": 34}
			q.DepthByPriority = map[string]float64{"-100": 34}
		}), "warning:workers-saturated"},
		{"the overflow label is no priority", starvedQueue(func(q *health.QueueStats) {
			q.DepthByPriorityBefore = map[string]float64{"exceeded_cardinality_limit": 20, "-100": 34}
			q.DepthByPriority = map[string]float64{"exceeded_cardinality_limit": 22, "-100": 34}
		}), "warning:workers-saturated"},
		{"priority-0 items come and go quickly, the low ones sit", starvedQueue(func(q *health.QueueStats) {
			q.DepthByPriorityBefore = map[string]float64{"0": 0, "-100": 3}
			q.DepthByPriority = map[string]float64{"0": 1, "-100": 3}
			q.QueueP50, q.QueueP99 = 0.01, 0.05
		}), ""},
		{"the low priority is empty", starvedQueue(func(q *health.QueueStats) {
			q.DepthByPriorityBefore = map[string]float64{"0": 20, "-100": 0}
			q.DepthByPriority = map[string]float64{"0": 22, "-100": 0}
		}), "warning:workers-saturated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := checks(Evaluate([]Target{crTarget(tc.q, ok, okAfter, 0)}, nil, nil, th)); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestPriorityStarvationNeedsTwoSamples(t *testing.T) {
	q := starvedQueue(func(q *health.QueueStats) { q.Window, q.DepthByPriorityBefore = 0, nil })
	tg := crTarget(q, nil, map[string]float64{"success": 40}, 0)
	tg.Prev, tg.Window = nil, 0
	for _, f := range Evaluate([]Target{tg}, nil, nil, DefaultThresholds()) {
		if f.Check == "priority-starvation" {
			t.Errorf("one sample raised %s %s: %s", f.Severity, f.Check, f.Summary)
		}
	}
}

func TestPriorityStarvationSaysNothingOnAWarmStandby(t *testing.T) {
	q := starvedQueue(func(q *health.QueueStats) { q.ActiveWorkers, q.CompletionsPerSecond = 0, 0 })
	tg := crTarget(q, nil, nil, 0)
	tg.Cur.Leader = map[string]float64{"lease": 0}
	if got := checks(Evaluate([]Target{tg}, nil, nil, DefaultThresholds())); got != "info:warm-standby" {
		t.Errorf("got %q, want the warm standby alone", got)
	}
}

// The field case: 250 priority-0 items keep the one worker busy, 40 items of the initial list
// wait. The cause comes first, before the backlog it explains, and the queue is SATURATED.
func TestPriorityStarvationComesFirst(t *testing.T) {
	q := starvedQueue(func(q *health.QueueStats) {
		q.DepthByPriorityBefore = map[string]float64{"0": 248, "-100": 40}
		q.DepthByPriority = map[string]float64{"0": 250, "-100": 40}
		q.DepthBefore, q.Depth, q.ActiveWorkers, q.MaxWorkers, q.CompletionsPerSecond = 288, 290, 1, 1, 2
	})
	tg := crTarget(q, map[string]float64{"success": 0}, map[string]float64{"success": 20}, 0)
	fs := Evaluate([]Target{tg}, nil, nil, DefaultThresholds())
	if got := checks(fs); got != "warning:priority-starvation warning:backlog-high" {
		t.Fatalf("got %q", got)
	}
	f := fs[0]
	t.Logf("%s: %s", f.Check, f.Summary)
	if f.Code != "CD214" || !strings.Contains(f.Summary, "40 items of priority -100") || f.Queue != "ctrl" {
		t.Errorf("finding: %s %s %q", f.Code, f.Queue, f.Summary)
	}
	evidence := map[string]string{}
	for _, e := range f.Evidence {
		evidence[e.Name] = e.Value
	}
	for name, want := range map[string]string{
		"depth by priority at the first sample": "0:248,-100:40", "depth by priority": "0:250,-100:40",
		"higher-priority depth": "250", "workers busy": "1 of 1", "completions/s": "2.00/s",
	} {
		if evidence[name] != want {
			t.Errorf("evidence %q = %q, want %q (all: %v)", name, evidence[name], want, evidence)
		}
	}
	if !strings.Contains(f.Recommendation, "UsePriorityQueue: ptr.To(false)") || !strings.Contains(f.Recommendation, "MaxConcurrentReconciles") {
		t.Errorf("recommendation does not name the knobs: %s", f.Recommendation)
	}
	Judge(&tg, DefaultThresholds())
	if st := tg.Queues[0].Status; st != health.StatusBacklog || !strings.Contains(tg.Queues[0].Reason, "CD219") {
		t.Errorf("status %s (%s): the worst status of the queue's findings is BACKLOG", st, tg.Queues[0].Reason)
	}
	tg.Queues[0] = starvedQueue(nil)
	Judge(&tg, DefaultThresholds())
	if st := tg.Queues[0].Status; st != health.StatusSaturated || !strings.Contains(tg.Queues[0].Reason, "CD214") {
		t.Errorf("status %s (%s), want SATURATED from CD214", st, tg.Queues[0].Reason)
	}
}
