package findings

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// queueLoad is what one queue did in a window, as the reference operator's scenarios make it.
type queueLoad struct {
	window       time.Duration
	workers      float64 // max concurrent reconciles; NaN for a component-base queue
	busy         float64
	depthBefore  float64
	depth        float64
	completed    float64 // items worked on in the window
	service      float64 // seconds each
	wait         float64 // seconds each waited
	requeueAfter bool    // results are requeue_after, else success
	objects      int     // objects counted by the objects view; 0 = not read
	changes      *objects.Changes
}

// workqueueHist is a controller-runtime workqueue histogram (buckets 1e-8 .. 1000 s) of n
// observations of v seconds.
func workqueueHist(n, v float64) *health.Histogram {
	h := &health.Histogram{Count: n, Sum: n * v}
	for ub := 1e-8; ub <= 1000*1.0001; ub *= 10 {
		c := 0.0
		if v <= ub {
			c = n
		}
		h.Buckets = append(h.Buckets, health.Bucket{UpperBound: ub, Count: c})
	}
	h.Buckets = append(h.Buckets, health.Bucket{UpperBound: math.Inf(1), Count: n})
	return h
}

// loadTarget is the target of the queue "ctrl" after l: two snapshots l.window apart, the
// first after 100 items, the queue stats health.Queues computes from them.
func loadTarget(l queueLoad) Target {
	cr := !math.IsNaN(l.workers)
	result := "success"
	if l.requeueAfter {
		result = "requeue_after"
	}
	mk := func(done, depth float64) *health.Snapshot {
		s := &health.Snapshot{Queues: map[string]*health.Queue{"ctrl": {Name: "ctrl", Depth: depth, Adds: done,
			QueueDuration: workqueueHist(done, l.wait), WorkDuration: workqueueHist(done, l.service)}},
			Leader: map[string]float64{"lease": 1}}
		if cr {
			s.Queues["ctrl"].Controller = "ctrl"
			s.Controllers = map[string]*health.Controller{"ctrl": {Name: "ctrl", ReconcileTotal: map[string]float64{result: done},
				ActiveWorkers: l.busy, MaxConcurrent: l.workers}}
		}
		return s
	}
	prev, cur := mk(100, l.depthBefore), mk(100+l.completed, l.depth)
	t := Target{ID: "ns/op:8080", Kind: ControllerRuntime, Prev: prev, Cur: cur, Window: l.window,
		Queues: health.Queues("ns/op:8080", prev, cur, l.window)}
	if !cr {
		t.Kind = KubeControllerManager
	}
	if l.objects > 0 {
		t.Objects = &objects.View{Kinds: []objects.Summary{{Controllers: []string{"ns/op:8080 ctrl"}, Total: l.objects, Changes: l.changes}}}
	}
	return t
}

// underProvisionedIn returns the under-provisioned finding of fs, if any.
func underProvisionedIn(fs []Finding) (Finding, bool) {
	for _, f := range fs {
		if f.Check == "under-provisioned" {
			return f, true
		}
	}
	return Finding{}, false
}

// workersNeeded reads the number of workers an under-provisioned finding advises.
func workersNeeded(t *testing.T, f Finding) int {
	t.Helper()
	for _, e := range f.Evidence {
		if e.Name == "workers needed" {
			n, err := strconv.Atoi(strings.TrimPrefix(e.Value, "at least "))
			if err != nil {
				t.Fatalf("workers needed %q", e.Value)
			}
			return n
		}
	}
	t.Fatalf("no workers needed in %+v", f.Evidence)
	return 0
}

// The reference operator's scenarios: under-provisioned only where the workers are the
// bottleneck, with a number that serves the load.
func TestUnderProvisionedScenarios(t *testing.T) {
	th := DefaultThresholds()
	ten := 10 * time.Second
	for _, tc := range []struct {
		name string
		l    queueLoad
		want bool
		// min and max bound the workers advised.
		min, max int
	}{
		// 5 objects, fast reconciles: the queue empties at once.
		{name: "healthy", l: queueLoad{window: ten, workers: 2, busy: 0, completed: 20, service: 0.005, wait: 0.001, objects: 5}},
		// 3s reconciles, one touch every 6s, one worker: busy half the time, nobody waits.
		{name: "slow (workers free)", l: queueLoad{window: time.Minute, workers: 1, busy: 1, completed: 10, service: 3, wait: 0.0001, objects: 3}},
		// 100 objects polled every 10s: a closed loop well within one worker.
		{name: "polling", l: queueLoad{window: ten, workers: 1, completed: 100, service: 0.01, wait: 0.0005, requeueAfter: true, objects: 100}},
		// requeueAfter 50ms on 5 objects: a hot loop, not a capacity problem.
		{name: "hotloop", l: queueLoad{window: ten, workers: 1, completed: 980, service: 0.0002, wait: 0.00001, requeueAfter: true, objects: 5}},
		// 150 objects touched 10/s, 1s reconciles, 2 workers: ~133 wait, each ~65s; about 10
		// workers are busy with no wait, so the advice must exceed 10.
		{name: "saturated, 2 workers", l: queueLoad{window: ten, workers: 2, busy: 2, depthBefore: 133, depth: 133, completed: 20,
			service: 1, wait: 65, objects: 150}, want: true, min: 11, max: 40},
		// The same at 1 worker (the e2e experiment's start).
		{name: "saturated, 1 worker", l: queueLoad{window: 30 * time.Second, workers: 1, busy: 1, depthBefore: 141, depth: 141, completed: 30,
			service: 1, wait: 140, objects: 150}, want: true, min: 11, max: 40},
		// The periodic load at 1 worker on the priority queue: the items that wait longest
		// (priority -100) are not measured yet, so the measured p99 is under the target; the
		// load (150 objects every 10.1s, 1.5 Erlangs) exceeds the worker and 51 items wait.
		{name: "periodic, 1 worker, long waits unseen", l: queueLoad{window: 30 * time.Second, workers: 1, busy: 1, depthBefore: 51, depth: 51,
			completed: 294, service: 0.1, wait: 0.2, requeueAfter: true, objects: 150}, want: true, min: 2, max: 4},
		// The same with the touches counted at the API server (each object twice in 30s): the
		// load is their 10/s.
		{name: "saturated, 1 worker, changes counted", l: queueLoad{window: 30 * time.Second, workers: 1, busy: 1, depthBefore: 141, depth: 141,
			completed: 30, service: 1, wait: 140, objects: 150, changes: &objects.Changes{Count: 300, Seconds: 30, ByCount: map[int]int{2: 150}}},
			want: true, min: 11, max: 14},
		// One object changed 20 times a second keeps the one worker busy: its changes merge
		// in the queue, it is one worker's load, and more workers cannot serve it faster.
		{name: "one hot key", l: queueLoad{window: 30 * time.Second, workers: 1, busy: 1, depthBefore: 1, depth: 1, completed: 30,
			service: 1, wait: 0.5, objects: 20, changes: &objects.Changes{Count: 600, Seconds: 30, ByCount: map[int]int{600: 1},
				Top: []objects.ObjectChanges{{Object: "ns/hot", Count: 600}}}}},
		// The hot key beside the saturated load: it is one worker's load among 11 Erlangs.
		{name: "a hot key among many", l: queueLoad{window: 30 * time.Second, workers: 1, busy: 1, depthBefore: 141, depth: 141,
			completed: 30, service: 1, wait: 140, objects: 151, changes: &objects.Changes{Count: 900, Seconds: 30, ByCount: map[int]int{2: 150, 600: 1},
				Top: []objects.ObjectChanges{{Object: "ns/hot", Count: 600}, {Object: "ns/w-1", Count: 2}}}},
			want: true, min: 12, max: 15},
		// The saturated load served by 16 workers: ~10 busy, nothing waits.
		{name: "saturated load, 16 workers", l: queueLoad{window: ten, workers: 16, busy: 10, completed: 100, service: 1, wait: 0.001, objects: 150}},
		// A closed loop one worker cannot keep up with: 100 objects every 1s, 0.1s each;
		// every object waits ~9s; the load with no wait is 100/1.1 ≈ 91/s, ~9 Erlangs.
		{name: "polling, saturated", l: queueLoad{window: ten, workers: 1, busy: 1, depthBefore: 90, depth: 90, completed: 100,
			service: 0.1, wait: 9, requeueAfter: true, objects: 100}, want: true, min: 10, max: 30},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := Evaluate([]Target{loadTarget(tc.l)}, nil, nil, th)
			f, got := underProvisionedIn(fs)
			if got != tc.want {
				t.Fatalf("under-provisioned %v, want %v: %s %+v", got, tc.want, checks(fs), f)
			}
			if !got {
				return
			}
			if n := workersNeeded(t, f); n < tc.min || n > tc.max {
				t.Errorf("advises %d workers, want %d..%d: %+v", n, tc.min, tc.max, f.Evidence)
			}
			if f.Severity != Warning || f.Code != "CD217" {
				t.Errorf("%s %s", f.Code, f.Severity)
			}
		})
	}
}

// A hot key that makes most of the load is said to be why more workers cannot help.
func TestCapacityNamesAHotKey(t *testing.T) {
	l := queueLoad{window: 30 * time.Second, workers: 1, busy: 1, depthBefore: 1, depth: 1, completed: 30, service: 1, wait: 0.5, objects: 20,
		changes: &objects.Changes{Count: 600, Seconds: 30, ByCount: map[int]int{600: 1}, Top: []objects.ObjectChanges{{Object: "ns/hot", Count: 600}}}}
	qc := Capacity(loadTarget(l), DefaultThresholds())
	if len(qc) != 1 || qc[0].Estimate.Helps || len(qc[0].In.Limits) != 1 || !strings.Contains(qc[0].In.Limits[0], "one hot key: ns/hot changed 600 times") {
		t.Fatalf("capacity %+v", qc)
	}
	l.changes.ByCount, l.changes.Top = map[int]int{2: 150, 600: 1}, []objects.ObjectChanges{{Object: "ns/hot", Count: 600}}
	l.depthBefore, l.depth, l.objects = 141, 141, 151
	qc = Capacity(loadTarget(l), DefaultThresholds())
	if len(qc) != 1 || !qc[0].Estimate.Helps || !strings.Contains(strings.Join(qc[0].Estimate.Notes, " "), "one hot key: ns/hot") {
		t.Fatalf("a hot key among many: capacity %+v", qc)
	}
}

// More workers cannot help a throttled client: the model says so and no finding is raised.
func TestUnderProvisionedNotWhenThrottled(t *testing.T) {
	l := queueLoad{window: 10 * time.Second, workers: 2, busy: 2, depthBefore: 133, depth: 133, completed: 20, service: 1, wait: 65, objects: 150}
	tg := loadTarget(l)
	rl := func(n, sum float64) *health.Histogram {
		return &health.Histogram{Count: n, Sum: sum, Buckets: []health.Bucket{{UpperBound: 1, Count: n}, {UpperBound: math.Inf(1), Count: n}}}
	}
	tg.Prev.Client.RateLimiterDuration, tg.Cur.Client.RateLimiterDuration = rl(10, 1), rl(30, 21)
	fs := Evaluate([]Target{tg}, nil, nil, DefaultThresholds())
	if f, ok := underProvisionedIn(fs); ok {
		t.Errorf("under-provisioned under client-side throttling: %+v", f)
	}
	qc := Capacity(tg, DefaultThresholds())
	if len(qc) != 1 || qc[0].Estimate.Helps || len(qc[0].In.Limits) == 0 || !strings.Contains(qc[0].In.Limits[0], "client-throttling") {
		t.Errorf("capacity under throttling: %+v", qc)
	}
	// The CPU at its limit holds the workers too.
	tg = loadTarget(l)
	tg.Prev.Process.CPUSeconds, tg.Cur.Process.CPUSeconds = 100, 109.5
	tg.Pod = &Pod{Namespace: "ns", Name: "op", CPULimitCores: 1}
	if f, ok := underProvisionedIn(Evaluate([]Target{tg}, nil, nil, DefaultThresholds())); ok {
		t.Errorf("under-provisioned at the CPU limit: %+v", f)
	}
}

// kube-controller-manager says nothing of its workers: --workers QUEUE=N gives them.
func TestUnderProvisionedWorkersOverride(t *testing.T) {
	l := queueLoad{window: 10 * time.Second, workers: math.NaN(), depthBefore: 133, depth: 133, completed: 50, service: 1, wait: 30}
	tg := loadTarget(l)
	if f, ok := underProvisionedIn(Evaluate([]Target{tg}, nil, nil, DefaultThresholds())); ok {
		t.Errorf("under-provisioned without knowing the workers: %+v", f)
	}
	tg.Workers = map[string]float64{"ctrl": 5}
	f, ok := underProvisionedIn(Evaluate([]Target{tg}, nil, nil, DefaultThresholds()))
	if !ok {
		t.Fatal("no under-provisioned with --workers ctrl=5 at 5 completions/s of 1s and 30s waits")
	}
	// Objects not counted: the adds hide the load, the advice is a floor.
	workers := ""
	for _, e := range f.Evidence {
		if e.Name == "workers" {
			workers = e.Value
		}
	}
	if !strings.Contains(f.Summary, "at least") || !strings.Contains(workers, "--workers") {
		t.Errorf("%s %+v", f.Summary, f.Evidence)
	}
}

// One sample has no rates: no model, no finding.
func TestCapacityNeedsAWindow(t *testing.T) {
	tg := loadTarget(queueLoad{window: 10 * time.Second, workers: 2, busy: 2, depthBefore: 133, depth: 133, completed: 20, service: 1, wait: 65, objects: 150})
	tg.Prev, tg.Window = nil, 0
	if qc := Capacity(tg, DefaultThresholds()); len(qc) != 0 {
		t.Errorf("capacity with one sample: %+v", qc)
	}
}
