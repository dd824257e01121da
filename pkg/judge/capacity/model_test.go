package capacity

import (
	"math"
	"strings"
	"testing"
	"time"
)

var opts = Options{TargetWait: 1, MinEvents: 10, ClosedShare: 0.5}

func base() Input {
	n := math.NaN()
	return Input{Window: 10, Adds: 1, Completions: 1, Completed: 10, Depth: 0, DepthBefore: 0, Busy: n,
		ServiceMean: 0.1, ServiceP99: 0.2, ServiceSpread: 0, Workers: 1, WaitMean: 0, WaitP99: 0,
		RequeueAfterShare: 0, Objects: n, Changes: n}
}

func TestModel(t *testing.T) {
	for _, tc := range []struct {
		name        string
		in          func(*Input)
		loop        Loop
		offered     float64
		lowerBound  bool
		workers     int
		utilisation float64
	}{
		{name: "open, light: one worker is enough", in: func(*Input) {}, loop: Open, offered: 1, workers: 1, utilisation: 0.1},
		{name: "open at ρ = 1 with nothing waiting: not saturated, the model says the wait has no bound", in: func(in *Input) {
			in.Adds, in.Completions, in.Completed, in.ServiceMean, in.Workers = 4, 4, 40, 1, 4
		}, loop: Open, offered: 4, workers: WorkersFor(4, 1, 0, 1), utilisation: 1},
		// The saturated scenario of the reference operator at 2 workers: 150 objects touched
		// 10/s in all, 1s reconciles; 2 completions/s, 130 objects wait, 2 in work.
		{name: "saturated, objects counted", in: func(in *Input) {
			in.Adds, in.Completions, in.Completed, in.ServiceMean, in.Workers = 2, 2, 20, 1, 2
			in.Depth, in.DepthBefore, in.Busy, in.Objects = 130, 130, 2, 150
		}, loop: Saturated, offered: 150 * 2.0 / idleMargin(18), workers: WorkersFor(150*2.0/idleMargin(18), 1, 0, 1), utilisation: 150 * 2.0 / idleMargin(18) / 2},
		// The depth moved over the window: the objects waiting are the mean of the samples
		// (130), so 18 are idle.
		{name: "saturated, depth moved, objects counted", in: func(in *Input) {
			in.Adds, in.Completions, in.Completed, in.ServiceMean, in.Workers = 2, 2, 20, 1, 2
			in.Depth, in.DepthBefore, in.Busy, in.Objects = 140, 120, 2, 150
		}, loop: Saturated, offered: 150 * 2.0 / idleMargin(18), workers: WorkersFor(150*2.0/idleMargin(18), 1, 0, 1), utilisation: 150 * 2.0 / idleMargin(18) / 2},
		// The saturated scenario at 1 worker with the changes counted at the API server: 10/s
		// touches, of which the queue merged all but 1/s. Only 2 objects are out of the queue
		// (the FIFO serves them in the order they are touched), which would read 75/s; the
		// count wins, and is no floor.
		{name: "saturated, changes counted", in: func(in *Input) {
			in.Adds, in.Completions, in.Completed, in.ServiceMean, in.Workers = 1, 1, 30, 1, 1
			in.Depth, in.DepthBefore, in.Busy, in.Objects, in.Changes = 147, 147, 1, 150, 10
		}, loop: Saturated, offered: 10, workers: WorkersFor(10, 1, 0, 1), utilisation: 10},
		// Changes of the kind fewer than the completions: the queue's items come from
		// elsewhere too (owned objects), so the count says nothing more and the objects'
		// rate of return is read.
		{name: "saturated, changes fewer than completions", in: func(in *Input) {
			in.Adds, in.Completions, in.Completed, in.ServiceMean, in.Workers = 2, 2, 20, 1, 2
			in.Depth, in.DepthBefore, in.Busy, in.Objects, in.Changes = 130, 130, 2, 150, 0.5
		}, loop: Saturated, offered: 150 * 2.0 / idleMargin(18), workers: WorkersFor(150*2.0/idleMargin(18), 1, 0, 1), utilisation: 150 * 2.0 / idleMargin(18) / 2},
		{name: "saturated, backlog growing, objects not counted: a floor", in: func(in *Input) {
			in.Adds, in.Completions, in.Completed, in.ServiceMean, in.Workers = 2, 2, 20, 1, 2
			in.Depth, in.DepthBefore = 60, 20
		}, loop: Saturated, offered: 2 + 4, lowerBound: true, workers: WorkersFor(6, 1, 0, 1), utilisation: 3},
		{name: "saturated, every object waits: a floor", in: func(in *Input) {
			in.Adds, in.Completions, in.Completed, in.ServiceMean, in.Workers = 2, 2, 20, 1, 2
			in.Depth, in.DepthBefore, in.Busy, in.Objects = 148, 148, 2, 150
		}, loop: Saturated, offered: 2, lowerBound: true, workers: WorkersFor(2, 1, 0, 1), utilisation: 1},
		// Closed loop: 100 objects requeued every 10s, 0.1s reconciles, 0.5s wait: completions
		// 100/10.6, 4.72 objects waiting (Little), 0.94 in work; the load with no wait is
		// 100/10.1, read from the depth or, without it, from the wait.
		{name: "closed loop, polling", in: func(in *Input) {
			in.Adds, in.Completions, in.Completed, in.Workers = 100/10.6, 100/10.6, 94, 1
			in.Depth, in.DepthBefore, in.Busy = 100/10.6*0.5, 100/10.6*0.5, 100/10.6*0.1
			in.WaitMean, in.RequeueAfterShare, in.Objects = 0.5, 1, 100
		}, loop: Closed, offered: 100 / 10.1, workers: WorkersFor(100/10.1, 0.1, 0, 1), utilisation: 100 / 10.1 * 0.1},
		{name: "closed loop, polling, no depth", in: func(in *Input) {
			in.Adds, in.Completions, in.Completed, in.Workers = 100/10.6, 100/10.6, 94, 1
			in.Depth, in.DepthBefore = math.NaN(), math.NaN()
			in.WaitMean, in.RequeueAfterShare, in.Objects = 0.5, 1, 100
		}, loop: Closed, offered: 100 / 10.1, workers: WorkersFor(100/10.1, 0.1, 0, 1), utilisation: 100 / 10.1 * 0.1},
		// Closed loop at 1 worker that cannot keep up: 100 objects, period 1s, 0.1s each: the
		// worker completes 10/s, 10 objects sleep out their period, 89 wait, 1 is in work; the
		// offered load is 100/1.1. The measured wait (here 3s, the waits of items still queued
		// unseen) does not count when the depth is known.
		{name: "closed loop, saturated", in: func(in *Input) {
			in.Adds, in.Completions, in.Completed, in.Workers, in.Depth, in.DepthBefore, in.Busy = 10, 10, 100, 1, 89, 89, 1
			in.WaitMean, in.RequeueAfterShare, in.Objects = 3, 1, 100
		}, loop: Closed, offered: 100 / 1.1, workers: WorkersFor(100/1.1, 0.1, 0, 1), utilisation: 100 / 1.1 * 0.1},
	} {
		in := base()
		tc.in(&in)
		e, ok := Model(in, opts)
		if !ok {
			t.Fatalf("%s: not modelled", tc.name)
		}
		if e.Loop != tc.loop || math.Abs(e.Offered-tc.offered) > 1e-6 || e.LowerBound != tc.lowerBound ||
			e.WorkersNeeded != tc.workers || math.Abs(e.Utilisation-tc.utilisation) > 1e-6 || !e.Helps {
			t.Errorf("%s: got %s offered %.4f floor %v workers %d ρ %.4f helps %v; want %s %.4f %v %d %.4f (notes %q)",
				tc.name, e.Loop, e.Offered, e.LowerBound, e.WorkersNeeded, e.Utilisation, e.Helps,
				tc.loop, tc.offered, tc.lowerBound, tc.workers, tc.utilisation, e.Notes)
		}
		if len(e.Notes) == 0 {
			t.Errorf("%s: no note says how the load was read", tc.name)
		}
	}
}

// A count of 3 idle objects could as well be 8: the load is read with the count's margin,
// and the advice is a floor.
func TestModelSaturatedFewIdle(t *testing.T) {
	in := base()
	in.Adds, in.Completions, in.Completed, in.ServiceMean, in.Workers = 1, 1, 30, 1, 1
	in.Depth, in.DepthBefore, in.Busy, in.Objects = 146, 146, 1, 150
	e, _ := Model(in, opts)
	if want := 150 / idleMargin(3); math.Abs(e.Offered-want) > 1e-9 || !e.LowerBound {
		t.Errorf("offered %.3g floor %v, want %.3g, a floor", e.Offered, e.LowerBound, want)
	}
	if e.Offered > 150.0/3 {
		t.Errorf("offered %.3g: the raw count would give %.3g", e.Offered, 150.0/3)
	}
}

func idleMargin(k float64) float64 { return k + 2*math.Sqrt(k) + 2 }

// The saturated scenario needs more than 10 workers (10 items a second of 1s each), and the
// advice must say so, not the 2 the adds alone would suggest.
func TestModelSaturatedScenarioAdvice(t *testing.T) {
	in := base()
	in.Adds, in.Completions, in.Completed, in.ServiceMean, in.Workers = 2, 2, 20, 1, 2
	in.Depth, in.DepthBefore, in.Busy, in.Objects = 133, 133, 2, 150
	e, _ := Model(in, opts)
	if e.WorkersNeeded <= 10 {
		t.Errorf("advice %d workers for ~10 items/s of 1s", e.WorkersNeeded)
	}
}

func TestModelTooFewEvents(t *testing.T) {
	in := base()
	in.Completed = 9
	if _, ok := Model(in, opts); ok {
		t.Error("9 completions modelled, minEvents is 10")
	}
	in = base()
	in.ServiceMean = math.NaN()
	if _, ok := Model(in, opts); ok {
		t.Error("modelled without a service time")
	}
}

func TestModelLimits(t *testing.T) {
	in := base()
	in.Limits = []string{"client-side throttling"}
	if e, _ := Model(in, opts); e.Helps {
		t.Error("more workers said to help under client-side throttling")
	}
}

func TestModelPredictsMM1(t *testing.T) {
	in := base()
	in.Adds, in.ServiceMean, in.ServiceSpread = 5, 0.1, 1 // ρ = 0.5, μ = 10
	e, _ := Model(in, opts)
	if want := 0.5 / (10 - 5); math.Abs(e.Predicted.Mean-want) > 1e-9 {
		t.Errorf("M/M/1 mean wait %g, want ρ/(μ-λ) = %g", e.Predicted.Mean, want)
	}
}

// A worker count no process runs (a broken page: controller_runtime_max_concurrent_reconciles
// 1e11) is said to be implausible, not computed with for minutes.
func TestImplausibleWorkers(t *testing.T) {
	in := Input{Window: 60, Adds: 10, Completions: 10, Completed: 600, Depth: 0, DepthBefore: 0, Busy: 1,
		ServiceMean: 0.1, ServiceSpread: 1, Workers: 1e11, WorkersFrom: "controller_runtime_max_concurrent_reconciles",
		WaitMean: 0, WaitP99: 0, RequeueAfterShare: 0, Objects: math.NaN(), Changes: math.NaN()}
	done := make(chan Estimate, 1)
	go func() {
		e, _ := Model(in, Options{TargetWait: 1, MinEvents: 10, ClosedShare: 0.5})
		done <- e
	}()
	select {
	case e := <-done:
		if !math.IsNaN(e.Predicted.P99) || !math.IsNaN(e.Utilisation) {
			t.Errorf("predicted %+v, utilisation %g with 1e11 workers, want unknown", e.Predicted, e.Utilisation)
		}
		found := false
		for _, n := range e.Notes {
			found = found || strings.Contains(n, "implausible") && strings.Contains(n, "at most 10000")
		}
		if !found {
			t.Errorf("notes %q do not say the workers are implausible", e.Notes)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the model of 1e11 workers is still computing after 5s")
	}
	if w := MMcWait(1, 1, MaxWorkers+1, 1); !math.IsNaN(w.Mean) || !math.IsNaN(ErlangC(MaxWorkers+1, 1)) {
		t.Errorf("more than MaxWorkers: wait %+v, want NaN", w)
	}
}

// At the bound the Erlang C recurrence is fast and stays a probability, where powers and
// factorials overflow; the search for the workers needed agrees with the wait it predicts.
func TestErlangCAtTheBound(t *testing.T) {
	t0 := time.Now()
	for _, a := range []float64{1, 5000, 9000, 9999.9} {
		if p := ErlangC(MaxWorkers, a); !(p >= 0 && p <= 1) {
			t.Errorf("ErlangC(%d, %g) = %g, not a probability", MaxWorkers, a, p)
		}
	}
	c := WorkersFor(900, 1, 1, 0.01)
	if c <= 900 || c > maxWorkers {
		t.Fatalf("WorkersFor(900 Erlangs) = %d", c)
	}
	if MMcWait(900, 1, c, 1).P99 > 0.01 || MMcWait(900, 1, c-1, 1).P99 <= 0.01 {
		t.Errorf("WorkersFor(900 Erlangs) = %d is not the fewest meeting the target", c)
	}
	if took := time.Since(t0); took > time.Second {
		t.Errorf("took %s", took)
	}
}
