package findings

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/capacity"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// QueueSLI is the queue-wait indicator of one queue over the window, judged against the
// queue-wait objective (targetQueueWait at SLOQuantile).
type QueueSLI struct {
	Target, Queue, Controller string
	// Objective is the objective in seconds.
	Objective float64
	// Counts are the waits the queue's histogram counted in the window: all of them, those
	// surely over the objective and those possibly over (NaN when unknown).
	Counts capacity.Counts
	// P99 is the measured p99 wait; P99AtLeast says it is only known to be P99 or more.
	P99        float64
	P99AtLeast bool
	Verdict    capacity.Verdict
	// Why says why the verdict is not breaks or holds.
	Why string
}

// SLIs judges the queue-wait indicator of every queue of t. A target made by WithCapacity
// gives the indicators it holds.
func SLIs(t Target, th Thresholds) []QueueSLI {
	if t.slis != nil {
		return *t.slis
	}
	return slisOf(t, th)
}

// slisOf is SLIs, computed.
func slisOf(t Target, th Thresholds) []QueueSLI {
	return perQueue(t, func(q health.QueueStats) QueueSLI { return queueSLI(t, q, th) })
}

// perQueue is one indicator of each queue of a target that was read; none for one that was not.
func perQueue[S any](t Target, indicator func(health.QueueStats) S) []S {
	if t.Cur == nil || t.ScrapeError != "" {
		return nil
	}
	out := make([]S, 0, len(t.Queues))
	for _, q := range t.Queues {
		out = append(out, indicator(q))
	}
	return out
}

// queueSLI judges one queue's waits over the window. With one sample the counts since the
// process started hold its start-up (the initial list of every object waits at once), and after
// a restart between the samples so does the window: neither is judged.
func queueSLI(t Target, q health.QueueStats, th Thresholds) QueueSLI {
	s := QueueSLI{Target: t.ID, Queue: q.Queue, Controller: q.Controller, Objective: th.TargetQueueWait.Seconds(),
		Counts: capacity.Counts{N: math.NaN(), Over: math.NaN(), OverAtMost: math.NaN()}, P99: q.QueueP99, P99AtLeast: q.QueueP99AtLeast,
		Verdict: capacity.NotJudged}
	cur := t.Cur.Queues[q.Queue]
	switch {
	case cur == nil || cur.QueueDuration == nil:
		s.Why = "not read: the queue exports no queue duration histogram"
		return s
	case t.Prev == nil || !(t.Window > 0):
		s.Why = "one sample: its counts since the process started hold the start-up; read twice (--interval 30s)"
		return s
	case t.restarted:
		s.Why = "the process restarted between the samples: the window holds its start-up"
		return s
	}
	var prev *health.Histogram
	if p := t.Prev.Queues[q.Queue]; p != nil {
		prev = p.QueueDuration
	}
	waits := cur.QueueDuration.Since(prev)
	surely, possibly := waits.Above(s.Objective)
	s.Counts = capacity.Counts{N: waits.Count, Over: surely, OverAtMost: possibly}
	if n, ok := infCount(waits); ok {
		s.Counts.N = n // the buckets' own count, so that the shares add up
	}
	s.Verdict, s.Why = capacity.Judge(s.Counts, SLOQuantile)
	if s.Verdict == capacity.NotJudged && s.Counts.N > 0 {
		s.Why = fmt.Sprintf("%.0f waits in %s, a p99 needs %.0f: a longer window (--interval)", s.Counts.N, t.Window.Round(100*time.Millisecond), math.Ceil(1/(1-SLOQuantile)-1e-9))
	}
	return s
}

// infCount is the count of h's +Inf bucket.
func infCount(h *health.Histogram) (float64, bool) {
	if h == nil || len(h.Buckets) == 0 {
		return 0, false
	}
	last := h.Buckets[len(h.Buckets)-1]
	return last.Count, math.IsInf(last.UpperBound, +1)
}

// sloCauses are the findings on the same queue that say why its waits break the objective.
var sloCauses = map[string]bool{"workers-saturated": true, "priority-starvation": true, "under-provisioned": true}

// queueWaitSLO raises queue-wait-slo for a queue whose waits break the objective; the findings
// of the queue's target so far (fs) that cause it are cited. It sets no STATUS: the causes do.
func queueWaitSLO(t Target, s QueueSLI, fs []Finding, th Thresholds) (Finding, bool) {
	if s.Verdict != capacity.Breaks {
		return Finding{}, false
	}
	budget := 1 - SLOQuantile
	share := s.Counts.Over / s.Counts.N
	objective := th.TargetQueueWait.String()
	evs := []Evidence{
		{Name: "waits in the window", Value: format(s.Counts.N, "")},
		{Name: "waits over " + objective, Value: format(s.Counts.Over, ""),
			Threshold: fmt.Sprintf(">= 3 and > %s + 2√%s (the budget and its Poisson margin)", format(s.Counts.N*budget, ""), format(s.Counts.N*budget, ""))},
		{Name: "share over " + objective, Value: fmt.Sprintf("%.1f%%", 100*share), Threshold: fmt.Sprintf("<= %.0f%% (p99 objective %s, targetQueueWait)", 100*budget, objective)},
		{Name: "queue wait p99 (measured)", Value: quantile(s.P99, s.P99AtLeast)},
		{Name: "window", Value: t.Window.Round(100 * time.Millisecond).String()},
	}
	var causes []string
	for _, f := range fs {
		if f.Queue == s.Queue && f.Target == s.Target && sloCauses[f.Check] {
			causes = append(causes, f.Code+" "+f.Check)
		}
	}
	if len(causes) > 0 {
		evs = append(evs, Evidence{Name: "cause", Value: strings.Join(causes, ", ")})
	}
	return newFinding("queue-wait-slo", t.Kind, t.ID, s.Queue,
		fmt.Sprintf("%.1f%% of %.0f items of %s waited over %s %s (p99 objective %s: at most %.0f%%)",
			100*share, s.Counts.N, s.Queue, objective, over(t), objective, 100*budget), evs...), true
}
