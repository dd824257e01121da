package view

import (
	"math"
	"strconv"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// Queue is one workqueue of one target over the window: every figure any output shows of a
// queue, computed once (NewQueue). Durations are in seconds; a figure that cannot be known
// is nil. The fields keep the names of the JSON fields they are written as.
type Queue struct {
	// Cluster is the target's cluster, in a fleet (see QueueList.Clusters).
	Cluster    string
	Target     string
	Controller string
	Queue      string
	// Window names what the rates and quantiles are over (QueueWindow).
	Window string

	Depth *float64
	// DepthBefore is the depth at the first sample; nil with one sample.
	DepthBefore *float64
	// Trend is rising, falling, steady, or unknown (one sample).
	Trend string
	// DrainSeconds is depth / completions per second: the time to clear the backlog; nil
	// when nothing completed.
	DrainSeconds *float64
	// DepthByPriority is the depth by the priority label of controller-runtime's priority
	// queue; nil on a plain queue.
	DepthByPriority map[string]*float64

	AddsPerSecond            *float64
	RetriesPerSecond         *float64
	CompletionsPerSecond     *float64
	ReconcileErrorsPerSecond *float64

	// The quantiles over the window (the lifetime with one sample); an AtLeast one is only
	// known to be its value or more (its rank lies above the highest finite bucket). The
	// p90s are read from the snapshots (see NewQueue).
	QueueP50Seconds, QueueP90Seconds, QueueP99Seconds                       *float64
	WorkP50Seconds, WorkP90Seconds, WorkP99Seconds                          *float64
	QueueP50AtLeast, QueueP90AtLeast, QueueP99AtLeast                       bool
	WorkP50AtLeast, WorkP90AtLeast, WorkP99AtLeast                          bool
	QueueMeanSeconds, WorkMeanSeconds                                       *float64
	UnfinishedWorkSeconds, LongestRunningSeconds, ActiveWorkers, MaxWorkers *float64

	Leader *bool
	Status string
	Reason string

	// Reconciles counts reconcile results (success, error, requeue, requeue_after) over the
	// window, or since start (controller-runtime only); nil without them.
	Reconciles map[string]float64
	// QueueBuckets and WorkBuckets are the latency distributions over the window, not
	// cumulative.
	QueueBuckets, WorkBuckets []Bucket
	// Finished is how many items' work finished over the window (the work duration's count):
	// what orders the report's event processing section.
	Finished float64
	// QueueWait is the queue-wait indicator over the window judged against its objective, as
	// the report's service levels judge it; set by top only (nil in queues and the report,
	// whose service levels are a section of their own).
	QueueWait *Objective
}

// Bucket is a non-cumulative histogram bucket: Count observations at or below LE seconds and
// above the previous bucket's bound.
type Bucket struct {
	LE    string  `json:"le"`
	Count float64 `json:"count"`
}

// NewQueue is the row of s, a queue as the model judged it. prev and cur are the target's
// snapshots (prev nil with one sample): the figures only the report shows (p90s, buckets,
// reconcile results) are read from them; with cur nil they are left out, as `queues` and
// `top` do, whose rows may be a standby's folded into its leader's.
func NewQueue(s health.QueueStats, prev, cur *health.Snapshot) Queue {
	f := new(figures)
	q := Queue{
		Target: s.Target, Controller: s.Controller, Queue: s.Queue, Window: QueueWindow(s),
		Depth: f.num(s.Depth), DepthBefore: f.num(s.DepthBefore), Trend: trend(s.DepthBefore, s.Depth),
		AddsPerSecond: f.num(s.AddsPerSecond), RetriesPerSecond: f.num(s.RetriesPerSecond),
		CompletionsPerSecond: f.num(s.CompletionsPerSecond), ReconcileErrorsPerSecond: f.num(s.ReconcileErrorsPerSecond),
		QueueP50Seconds: f.num(s.QueueP50), QueueP99Seconds: f.num(s.QueueP99), WorkP50Seconds: f.num(s.WorkP50), WorkP99Seconds: f.num(s.WorkP99),
		QueueP50AtLeast: s.QueueP50AtLeast, QueueP99AtLeast: s.QueueP99AtLeast, WorkP50AtLeast: s.WorkP50AtLeast, WorkP99AtLeast: s.WorkP99AtLeast,
		QueueMeanSeconds: f.num(s.QueueMean), WorkMeanSeconds: f.num(s.WorkMean),
		UnfinishedWorkSeconds: f.num(s.Unfinished), LongestRunningSeconds: f.num(s.Longest),
		ActiveWorkers: f.num(s.ActiveWorkers), MaxWorkers: f.num(s.MaxWorkers),
		Status: string(s.Status), Reason: s.Reason,
	}
	if s.CompletionsPerSecond > 0 {
		q.DrainSeconds = f.num(s.Depth / s.CompletionsPerSecond)
	}
	if len(s.DepthByPriority) > 0 {
		q.DepthByPriority = make(map[string]*float64, len(s.DepthByPriority))
		for p, v := range s.DepthByPriority {
			q.DepthByPriority[p] = Num(v)
		}
	}
	if !math.IsNaN(s.Leader) {
		leader := s.Leader == 1
		q.Leader = &leader
	}
	if cur != nil {
		q.distribution(s, prev, cur, f)
	}
	return q
}

// figures hold a row's numbers, so that a row takes one allocation for them rather than one
// each (a report has a row for every queue of every target).
type figures struct {
	v [19]float64
	n int
}

// num is Num, its value kept in f while there is room.
func (f *figures) num(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	if f.n == len(f.v) {
		return Num(v) // not &v: v would move to the heap on every call
	}
	f.v[f.n] = v
	f.n++
	return &f.v[f.n-1]
}

// trend compares the depth at the two samples.
func trend(before, now float64) string {
	switch {
	case math.IsNaN(before) || math.IsNaN(now):
		return "unknown"
	case now > before:
		return "rising"
	case now < before:
		return "falling"
	}
	return "steady"
}

// distribution reads the p90s, the buckets and the reconcile results of the window from the
// target's snapshots.
func (q *Queue) distribution(s health.QueueStats, prev, cur *health.Snapshot, f *figures) {
	if cq := cur.Queues[s.Queue]; cq != nil {
		var pq *health.Queue
		if prev != nil {
			pq = prev.Queues[s.Queue]
		}
		qd, wd := cq.QueueDuration, cq.WorkDuration
		if pq != nil {
			qd, wd = qd.Since(pq.QueueDuration), wd.Since(pq.WorkDuration)
		}
		q90, w90 := qd.Estimate(0.9), wd.Estimate(0.9)
		q.QueueP90Seconds, q.WorkP90Seconds = f.num(q90.Value), f.num(w90.Value)
		q.QueueP90AtLeast, q.WorkP90AtLeast = q90.AtLeast, w90.AtLeast
		q.QueueBuckets, q.WorkBuckets = buckets(qd), buckets(wd)
		if wd != nil {
			q.Finished = wd.Count
		}
	}
	if c := cur.Controllers[s.Controller]; c != nil {
		q.Reconciles = map[string]float64{}
		for res, v := range c.ReconcileTotal {
			before := math.NaN()
			if prev != nil && prev.Controllers[s.Controller] != nil {
				before = prev.Controllers[s.Controller].ReconcileTotal[res]
			}
			q.Reconciles[res] = health.Increase(before, v)
		}
	}
}

// buckets turns a cumulative histogram into per-bucket counts.
func buckets(h *health.Histogram) []Bucket {
	if h == nil || h.Count == 0 {
		return nil
	}
	var out []Bucket
	var prev float64
	for _, b := range h.Buckets {
		le := "+Inf"
		if !math.IsInf(b.UpperBound, 1) {
			le = strconv.FormatFloat(b.UpperBound, 'g', -1, 64)
		}
		out = append(out, Bucket{LE: le, Count: math.Max(0, b.Count-prev)})
		prev = b.Count
	}
	return out
}
