package health

import (
	"math"
	"sort"
	"time"
)

// QueueStats are the figures of one queue over a window (two samples) or over the process
// lifetime (one sample). Values that cannot be known are NaN.
type QueueStats struct {
	Target     string
	Queue      string
	Controller string
	// Window is the time between the two samples, 0 for lifetime figures.
	Window      time.Duration
	Depth       float64
	DepthBefore float64 // depth in the first sample, NaN with one sample
	// DepthByPriority is the depth by priority on controller-runtime's priority queue (nil on
	// a plain queue); DepthByPriorityBefore the same at the first sample (nil with one).
	DepthByPriority, DepthByPriorityBefore map[string]float64
	// Rates per second over the window; NaN with one sample.
	AddsPerSecond            float64
	RetriesPerSecond         float64
	CompletionsPerSecond     float64 // from the work duration count
	ReconcileErrorsPerSecond float64
	// Quantiles in seconds over the window, or lifetime with one sample, as Histogram.Estimate
	// gives them (bounded by the sum); an AtLeast one is only known to be that or more (its
	// rank lies above the highest finite bucket).
	QueueP50, QueueP99                                               float64
	WorkP50, WorkP99                                                 float64
	QueueP50AtLeast, QueueP99AtLeast, WorkP50AtLeast, WorkP99AtLeast bool
	// Waits and Worked are the observations the queue and work quantiles rest on: the items
	// that left the queue, and those whose work ended, over the window (or the lifetime with
	// one sample). NaN without the histogram.
	Waits, Worked float64
	// QueueMean and WorkMean are the mean seconds of the same observations (sum/count).
	QueueMean, WorkMean float64
	// WorkSeconds is the seconds of work the items finished over the window (or the lifetime)
	// took: the work duration histogram's sum. NaN without it.
	WorkSeconds float64
	Unfinished  float64
	Longest     float64
	// LongestBefore is the longest running item's age at the first sample, NaN with one.
	LongestBefore float64
	ActiveWorkers float64
	MaxWorkers    float64
	// ErrorRatio is reconcile errors / reconciles and RetryRatio retries / adds, over the
	// window or the lifetime; NaN when unknown.
	ErrorRatio float64
	RetryRatio float64
	// Leader is the target's Leadership as a gauge: 1 leader, 0 standby, NaN unknown.
	Leader float64
	Status Status
	// Reason says why the status is what it is, in words, with the numbers.
	Reason string

	// Reconciles and ReconcileErrors are the counts behind ErrorRatio (over the window, or
	// since start with one sample); the Lifetime ones are the process's totals, judged when the
	// window holds too few reconciles (see Failures). NaN without controller-runtime metrics.
	Reconciles, ReconcileErrors                 float64
	LifetimeReconciles, LifetimeReconcileErrors float64

	// SinceRestart marks figures of a target that restarted between its samples: Window is
	// then the time since the later process started (0: its lifetime).
	SinceRestart bool

	adds float64 // adds behind RetryRatio
}

// Queues compares the snapshots of one target and returns one QueueStats per queue, sorted
// worst first. prev is nil for lifetime figures; window is the time between prev and cur.
func Queues(target string, prev, cur *Snapshot, window time.Duration) []QueueStats {
	if prev == nil {
		window = 0
	}
	leader := cur.Leadership().Status()
	var out []QueueStats
	for name, q := range cur.Queues {
		var before *Queue
		if prev != nil {
			// A queue missing from the first sample started within the window: its counters
			// grew from zero, so it compares against an empty queue.
			before = prev.Queues[name]
			if before == nil {
				before = &Queue{Name: name, Depth: math.NaN()}
			}
		}
		st := queueStats(target, q, before, cur.Controllers[controllerOf(q)], controllerIn(prev, controllerOf(q)), window)
		st.Leader = leader
		st.Status = StatusOK // until the findings judge it
		out = append(out, st)
	}
	if prev != nil {
		for name, q := range prev.Queues {
			if cur.Queues[name] == nil {
				out = append(out, gone(target, q, window, leader))
			}
		}
	}
	Sort(out)
	return out
}

// Failures are the reconcile errors and reconciles the verdicts judge: over the window, or,
// when the window holds fewer than minEvents reconciles but some of them failed, over the
// process's life (a failing controller backs off, so its rate is low); lifetime says which.
// Without one sample more than the other, both are the lifetime counts. NaN without
// controller-runtime metrics.
func (s QueueStats) Failures(minEvents float64) (errs, reconciles float64, lifetime bool) {
	if s.Window > 0 && s.Reconciles < minEvents && s.ReconcileErrors > 0 && s.LifetimeReconciles >= minEvents {
		return s.LifetimeReconcileErrors, s.LifetimeReconciles, true
	}
	return s.ReconcileErrors, s.Reconciles, false
}

// Sort orders stats worst first, then by depth, target and queue.
func Sort(s []QueueStats) {
	sort.SliceStable(s, func(i, j int) bool {
		a, b := s[i], s[j]
		if a.Status.Rank() != b.Status.Rank() {
			return a.Status.Rank() < b.Status.Rank()
		}
		if da, db := nanZero(a.Depth), nanZero(b.Depth); da != db {
			return da > db
		}
		if a.Target != b.Target {
			return a.Target < b.Target
		}
		return a.Queue < b.Queue
	})
}

func queueStats(target string, q, before *Queue, c, cBefore *Controller, window time.Duration) QueueStats {
	n := math.NaN()
	st := QueueStats{Target: target, Queue: q.Name, Controller: controllerOf(q), Window: window,
		Depth: q.Depth, DepthBefore: n, DepthByPriority: q.DepthByPriority, AddsPerSecond: n, RetriesPerSecond: n,
		CompletionsPerSecond: n, ReconcileErrorsPerSecond: n,
		Unfinished: q.Unfinished, Longest: q.Longest, LongestBefore: n, ActiveWorkers: n, MaxWorkers: n}
	if c != nil && plausibleWorkers(c) {
		st.ActiveWorkers, st.MaxWorkers = c.ActiveWorkers, c.MaxConcurrent
	}
	queueDur, workDur := q.QueueDuration, q.WorkDuration
	st.adds, st.Reconciles = q.Adds, c.Reconciles()
	retries, errs := q.Retries, errorsOf(c)
	if before != nil && window > 0 {
		secs := window.Seconds()
		st.DepthBefore, st.LongestBefore = before.Depth, before.Longest
		st.DepthByPriorityBefore = before.DepthByPriority
		st.AddsPerSecond = Increase(before.Adds, q.Adds) / secs
		st.RetriesPerSecond = Increase(before.Retries, q.Retries) / secs
		st.CompletionsPerSecond = Increase(countOf(before.WorkDuration), countOf(q.WorkDuration)) / secs
		if c != nil {
			st.ReconcileErrorsPerSecond = Increase(errorsOf(cBefore), c.ReconcileErrors) / secs
		}
		queueDur, workDur = q.QueueDuration.Since(before.QueueDuration), q.WorkDuration.Since(before.WorkDuration)
		st.adds, retries = Increase(before.Adds, q.Adds), Increase(before.Retries, q.Retries)
		if c != nil {
			st.Reconciles = Increase(cBefore.Reconciles(), c.Reconciles())
			errs = Increase(errorsOf(cBefore), c.ReconcileErrors)
		}
	}
	st.RetryRatio, st.ErrorRatio = ratio(retries, st.adds), ratio(errs, st.Reconciles)
	st.ReconcileErrors, st.LifetimeReconciles, st.LifetimeReconcileErrors = errs, c.Reconciles(), errorsOf(c)
	st.QueueP50, st.QueueP50AtLeast = estimate(queueDur, 0.5)
	st.QueueP99, st.QueueP99AtLeast = estimate(queueDur, 0.99)
	st.WorkP50, st.WorkP50AtLeast = estimate(workDur, 0.5)
	st.WorkP99, st.WorkP99AtLeast = estimate(workDur, 0.99)
	st.QueueMean, st.WorkMean = queueDur.Mean(), workDur.Mean()
	st.Waits, st.Worked = countOf(queueDur), countOf(workDur)
	st.WorkSeconds = n
	if workDur != nil {
		st.WorkSeconds = workDur.Sum
	}
	return st
}

func gone(target string, q *Queue, window time.Duration, leader float64) QueueStats {
	n := math.NaN()
	return QueueStats{Target: target, Queue: q.Name, Controller: controllerOf(q), Window: window,
		Depth: n, DepthBefore: q.Depth, DepthByPriorityBefore: q.DepthByPriority, AddsPerSecond: n, RetriesPerSecond: n, CompletionsPerSecond: n,
		ReconcileErrorsPerSecond: n, QueueP50: n, QueueP99: n, WorkP50: n, WorkP99: n, QueueMean: n, WorkMean: n, WorkSeconds: n, Waits: n, Worked: n,
		Reconciles: n, ReconcileErrors: n, LifetimeReconciles: n, LifetimeReconcileErrors: n,
		Unfinished: n, Longest: n, LongestBefore: n, ActiveWorkers: n, MaxWorkers: n, Leader: leader,
		Status: StatusGone, Reason: "the queue was in the first sample but not in the second: the process restarted or lost leadership"}
}

func controllerOf(q *Queue) string {
	if q.Controller != "" {
		return q.Controller
	}
	return q.Name // controller-runtime names the queue after the controller
}

func controllerIn(s *Snapshot, name string) *Controller {
	if s == nil {
		return nil
	}
	return s.Controllers[name]
}

func estimate(h *Histogram, q float64) (float64, bool) {
	e := h.Estimate(q)
	return e.Value, e.AtLeast
}

func countOf(h *Histogram) float64 {
	if h == nil {
		return math.NaN()
	}
	return h.Count
}

func errorsOf(c *Controller) float64 {
	if c == nil {
		return math.NaN()
	}
	return c.ReconcileErrors
}

func nanZero(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return v
}

// ratio is part/whole, NaN when whole is not positive.
func ratio(part, whole float64) float64 {
	if !(whole > 0) {
		return math.NaN()
	}
	return part / whole
}
