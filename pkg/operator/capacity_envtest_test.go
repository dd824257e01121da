//go:build envtest

package operator_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/scenario"
)

// capacityWindow holds 30 items of one worker at 1s a reconcile, past minEvents (10).
const capacityWindow = 30 * time.Second

// capacityRun is one run of a scenario at some workers: the capacity model's reading of its
// queue over capacityWindow, and report's findings over the same window.
type capacityRun struct {
	qc       findings.QueueCapacity
	findings []findings.Finding
}

// runCapacity runs scenario sc at workers, lets it settle for warm, and models its queue over
// capacityWindow with the scenario's object count, as report does with the objects view.
func runCapacity(t *testing.T, sc string, workers int, warm time.Duration) capacityRun {
	t.Helper()
	in := start(t, fmt.Sprintf("cap-%s-%d-%d", sc, workers, time.Now().UnixNano()%10000), sc, func(c *operator.Config) {
		c.Workers, c.WorkersSet = workers, true
	})
	in.waitForController(t, "")
	time.Sleep(warm)
	a := in.sample(t)
	time.Sleep(capacityWindow)
	b := in.sample(t)
	in.stop(t)

	own := func(f families) *health.Snapshot {
		s := health.FromFamilies(f, time.Time{})
		for name := range s.Queues {
			if name != in.controller {
				delete(s.Queues, name)
			}
		}
		for name := range s.Controllers {
			if name != in.controller {
				delete(s.Controllers, name)
			}
		}
		s.Leader = nil
		return s
	}
	s, _ := scenario.Get(sc)
	prev, cur := own(a), own(b)
	id := "envtest/" + in.controller
	tg := findings.Target{ID: id, Kind: findings.ControllerRuntime, Prev: prev, Cur: cur, Window: capacityWindow,
		Queues:  health.Queues(id, prev, cur, capacityWindow),
		Objects: &objects.View{Kinds: []objects.Summary{{Controllers: []string{id + " " + in.controller}, Total: s.Objects}}}}
	th := findings.DefaultThresholds()
	findings.Judge(&tg, th)
	qcs := findings.Capacity(tg, th)
	if len(qcs) != 1 {
		t.Fatalf("%s at %d workers: %d queues modelled, want 1", sc, workers, len(qcs))
	}
	return capacityRun{qc: qcs[0], findings: findings.Evaluate([]findings.Target{tg}, nil, nil, th)}
}

func secs(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "no bound"
	case math.IsNaN(v):
		return "-"
	}
	return fmt.Sprintf("%.3gs", v)
}

// row is a line of docs/capacity.md's table of predicted against measured waits.
func (r capacityRun) row(sc string) string {
	in, e := r.qc.In, r.qc.Estimate
	return fmt.Sprintf("| %s | %.0f | %s | %.3g | %.3g | %.2f | %s | %s | %s | %s | %d |", sc, in.Workers, e.Loop, in.Adds, e.Offered,
		e.Utilisation, secs(e.Predicted.P99), secs(in.WaitP99), secs(e.Predicted.Mean), secs(in.WaitMean), e.WorkersNeeded)
}

func has(fs []findings.Finding, check string) bool {
	for _, f := range fs {
		if f.Check == check {
			return true
		}
	}
	return false
}

// TestCapacityModelAgainstOperator is the capacity experiment of docs/capacity.md on a real
// API server: the event-driven (saturated) and closed-loop (periodic) loads at 1, 2 and 4
// workers, the model's waits beside the measured ones, then each at the workers advised at
// one worker, where neither saturation nor under-provisioning may remain and the measured
// p99 wait must meet the target.
func TestCapacityModelAgainstOperator(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		loop     string
		keepsUp  int // workers from which the nominal load is served
	}{
		{"saturated", "saturated", 11},
		{"periodic", "closed", 2},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			advice := 0
			t.Logf("| load | workers | loop | adds/s | offered/s | utilisation | p99 model | p99 measured | mean model | mean measured | workers needed |")
			for _, workers := range []int{1, 2, 4} {
				r := runCapacity(t, tc.scenario, workers, 40*time.Second)
				t.Logf("%s", r.row(tc.scenario))
				t.Logf("  notes %q limits %q findings %s", r.qc.Estimate.Notes, r.qc.In.Limits, checks(r.findings))
				if workers == 1 {
					advice = r.qc.Estimate.WorkersNeeded
					if !has(r.findings, "under-provisioned") {
						t.Errorf("%s at 1 worker: no under-provisioned: %s", tc.scenario, serious(r.findings))
					}
				}
				want := tc.loop
				if string(r.qc.Estimate.Loop) != want {
					t.Errorf("%s at %d workers: loop %s, want %s", tc.scenario, workers, r.qc.Estimate.Loop, want)
				}
				if bounded, want := !math.IsInf(r.qc.Estimate.Predicted.P99, 1), workers >= tc.keepsUp; bounded != want {
					t.Errorf("%s at %d workers: predicted wait bounded %v, want %v", tc.scenario, workers, bounded, want)
				}
			}
			if advice < 1 {
				t.Fatalf("%s: no advice at 1 worker", tc.scenario)
			}
			r := runCapacity(t, tc.scenario, advice, 40*time.Second)
			t.Logf("%s (advised)", r.row(tc.scenario))
			t.Logf("  findings %s", checks(r.findings))
			for _, c := range []string{"workers-saturated", "under-provisioned", "backlog-growing", "backlog-high"} {
				if has(r.findings, c) {
					t.Errorf("%s at the advised %d workers: %s", tc.scenario, advice, serious(r.findings))
				}
			}
			if !(r.qc.In.WaitP99 < 1) {
				t.Errorf("%s at the advised %d workers: measured wait p99 %s, want under 1s", tc.scenario, advice, secs(r.qc.In.WaitP99))
			}
		})
	}
}
