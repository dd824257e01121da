package findings

import (
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// A wait figure is only as strong as the waits it rests on: busy workers whose p99 wait rests
// on fewer than minEvents waits, or on the process's life (one sample), say so with the count
// and raise info at most; the same queue with enough waits in the window, a depth rising
// meanwhile, or a backlog held through it (a slow queue serves few), is a warning.
func TestSaturationOnAFewWaitsIsInfo(t *testing.T) {
	ok, okAfter := map[string]float64{"success": 0}, map[string]float64{"success": 10}
	busy := func(mod func(q *health.QueueStats)) Target {
		return crTarget(queue(func(q *health.QueueStats) {
			q.Depth, q.DepthBefore, q.ActiveWorkers, q.MaxWorkers, q.QueueP99, q.WorkP99 = 3, 3, 2, 2, 40.06, 1.1
			if mod != nil {
				mod(q)
			}
		}), ok, okAfter, 0)
	}
	oneSample := busy(func(q *health.QueueStats) { q.Window, q.Waits = 0, 400 })
	oneSample.Prev, oneSample.Window = nil, 0
	for _, c := range []struct {
		name   string
		target Target
		want   string // severity of workers-saturated
		value  string // its queue p99 evidence
		basis  string
	}{
		{"4 waits in the window", busy(func(q *health.QueueStats) { q.Waits = 4 }), "info", "40.06s from 4 waits", BasisWindow},
		{"400 waits since start", oneSample, "info", "40.06s from 400 waits since start", BasisSinceStart},
		{"50 waits in the window", busy(func(q *health.QueueStats) { q.Waits = 50 }), "warning", "40.06s from 50 waits", BasisWindow},
		{"4 waits, depth rising", busy(func(q *health.QueueStats) { q.Waits, q.DepthBefore, q.Depth = 4, 3, 30 }), "warning", "40.06s from 4 waits", BasisWindow},
		{"4 waits, a backlog held", busy(func(q *health.QueueStats) { q.Waits, q.DepthBefore, q.Depth = 4, 137, 137 }), "warning", "40.06s from 4 waits", BasisWindow},
		{"4 waits, a backlog that drained", busy(func(q *health.QueueStats) { q.Waits, q.DepthBefore, q.Depth = 4, 137, 3 }), "info", "40.06s from 4 waits", BasisWindow},
	} {
		t.Run(c.name, func(t *testing.T) {
			var f *Finding
			fs := Evaluate([]Target{c.target}, nil, nil, DefaultThresholds())
			for i := range fs {
				if fs[i].Check == "workers-saturated" {
					f = &fs[i]
				}
			}
			if f == nil {
				t.Fatalf("no workers-saturated among %s", checks(fs))
			}
			if string(f.Severity) != c.want || evidenceValue(*f, "queue p99") != c.value {
				t.Errorf("%s, queue p99 %q; want %s, %q", f.Severity, evidenceValue(*f, "queue p99"), c.want, c.value)
			}
			if c.want == "info" && !strings.Contains(f.Summary, "too little to judge") {
				t.Errorf("summary %q does not say the figure is too little to judge", f.Summary)
			}
			for _, e := range f.Evidence {
				if e.Name == "queue p99" && (e.Basis != c.basis || !(e.Observations > 0)) {
					t.Errorf("queue p99 evidence basis %q, observations %v; want %q and the count", e.Basis, e.Observations, c.basis)
				}
			}
		})
	}
}

// A work p99 the window cannot give (no item finished in it) falls back to the process's
// life: that says so and is info, not a warning of slowness long past.
func TestSlowWorkSinceStartIsInfo(t *testing.T) {
	les := []string{"0.1", "1", "10", "+Inf"}
	prev := workPage(t, les, map[string]float64{"10": 4, "+Inf": 4}, 40.2, 4)
	cur := workPage(t, les, map[string]float64{"10": 4, "+Inf": 4}, 40.2, 4)
	cur.Queues["q"].Adds = prev.Queues["q"].Adds + 3 // items came, none finished in the window
	tg := Target{ID: "t", Kind: ClientGo, Prev: prev, Cur: cur, Window: 10 * time.Second}
	tg.Queues = health.Queues("t", prev, cur, 10*time.Second)
	Judge(&tg, DefaultThresholds())
	fs := Evaluate([]Target{tg}, nil, nil, DefaultThresholds())
	if got := checks(fs); got != "info:slow-reconcile" {
		t.Fatalf("findings %q, want slow-reconcile as info", got)
	}
	if !strings.Contains(fs[0].Summary, "since the process started") || !strings.Contains(evidenceValue(fs[0], "work p99"), "from 4 items since start") {
		t.Errorf("finding %q (work p99 %q) does not say it is since start, from 4 items", fs[0].Summary, evidenceValue(fs[0], "work p99"))
	}
	if tg.Queues[0].Status != health.StatusOK {
		t.Errorf("status %s, want OK: an info finding sets no status", tg.Queues[0].Status)
	}
}
