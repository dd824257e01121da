package findings

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/capacity"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// SpecSLI is the spec-latency indicator of one queue's controller over the window: how long
// it took to act on the spec changes of the objects of its kind, judged against the
// spec-latency objective (targetSpecLatency at SLOQuantile).
type SpecSLI struct {
	Target, Queue, Controller string
	// Kind is the resource of the objects watched ("workloads.demo.ctrldiag.dev"); "" when
	// the controller's kind is not known.
	Kind string
	// Objective is the objective in seconds.
	Objective float64
	// Counts are the changes judged: those acted on within the watch, and those in flight at
	// its start or end that had waited possibly over the objective; over counts those surely
	// (possibly) over it.
	Counts capacity.Counts
	// Undecided are the changes in flight at the start or end of the watch that had waited
	// less than the objective's bound: the watch does not place them (see
	// objects.SpecLatency.Samples).
	Undecided float64
	// Changes are the spec changes seen; Pending those not acted on at the end.
	Changes, Pending int
	// P50 and P99 are the exact latencies of the changes acted on; NaN without any.
	P50, P99 float64
	// Seconds is how long the objects were watched.
	Seconds float64
	// Oldest are the objects behind longest at the end.
	Oldest  []objects.PendingObject
	Verdict capacity.Verdict
	// Why says why the verdict is not breaks or holds.
	Why string
}

// SpecSLIs judges the spec-latency indicator of every queue of t whose controller's kind was
// read.
func SpecSLIs(t Target, th Thresholds) []SpecSLI {
	return perQueue(t, func(q health.QueueStats) SpecSLI { return specSLI(t, q, th) })
}

// specSLI judges one queue's controller's spec latency from the watch of its kind's objects.
// Without a watch (no cluster, one sample, a snapshot taken without one), without a kind, or
// for a kind that keeps no observedGeneration or has no /status subresource, it is not judged.
func specSLI(t Target, q health.QueueStats, th Thresholds) SpecSLI {
	s := SpecSLI{Target: t.ID, Queue: q.Queue, Controller: q.Controller, Objective: th.TargetSpecLatency.Seconds(),
		Counts: capacity.Counts{N: math.NaN(), Over: math.NaN(), OverAtMost: math.NaN()}, P50: math.NaN(), P99: math.NaN(), Verdict: capacity.NotJudged}
	sum := t.Objects.Of(t.ID, q.Controller)
	switch {
	case t.Objects == nil:
		s.Why = "not read: no cluster to watch the objects in (--url, --from-file, --prometheus)"
		return s
	case sum == nil:
		s.Why = "not read: the controller's kind is not known (--controller-kind)"
		return s
	}
	s.Kind = sum.Kind.GroupResource()
	l := sum.SpecLatency
	switch {
	case l == nil && sum.Error != "":
		s.Why = "not read: " + sum.Error
		return s
	case l == nil:
		s.Why = "not read: the objects were not watched over the window (read twice, --interval)"
		return s
	case l.Error != "" && l.Seconds < t.Window.Seconds()/2:
		s.Why = "not read: " + l.Error
		return s
	case l.NoStatusSubresource:
		s.Why = fmt.Sprintf("%s has no /status subresource: the controller's status writes bump its generation, so when a change was acted on is not measurable", s.Kind)
		return s
	case l.NoObservedGeneration:
		s.Why = fmt.Sprintf("%s keeps no observedGeneration: its status does not say when a change was acted on", s.Kind)
		return s
	}
	s.Seconds, s.Changes, s.Pending, s.Oldest = l.Seconds, l.Changes, l.Pending, l.PendingObjects
	if l.P50Seconds != nil {
		s.P50 = *l.P50Seconds
	}
	if l.P99Seconds != nil {
		s.P99 = *l.P99Seconds
	}
	n, surely, possibly, undecided := l.Samples(s.Objective)
	s.Counts, s.Undecided = capacity.Counts{N: n, Over: surely, OverAtMost: possibly}, undecided
	s.Verdict, s.Why = capacity.Judge(s.Counts, SLOQuantile)
	if s.Verdict == capacity.NotJudged {
		watched := (time.Duration(l.Seconds * float64(time.Second))).Round(100 * time.Millisecond)
		if n == 0 {
			s.Why = fmt.Sprintf("no spec change of %s in %s", s.Kind, watched)
		} else {
			s.Why = fmt.Sprintf("%.0f spec changes in %s, a p99 needs %.0f: a longer window (--interval)", n, watched, math.Ceil(1/(1-SLOQuantile)-1e-9))
		}
	}
	return s
}

// specLatencySLO raises spec-latency-slo for a controller whose spec changes break the
// objective, naming the objects behind longest. It sets no STATUS: the queue's own findings
// say what holds it back.
func specLatencySLO(t Target, s SpecSLI, th Thresholds) (Finding, bool) {
	if s.Verdict != capacity.Breaks {
		return Finding{}, false
	}
	budget := 1 - SLOQuantile
	share := s.Counts.Over / s.Counts.N
	objective := th.TargetSpecLatency.String()
	watched := (time.Duration(s.Seconds * float64(time.Second))).Round(100 * time.Millisecond)
	evs := []Evidence{
		{Name: "spec changes in the window", Value: format(s.Counts.N, "")},
		{Name: "changes over " + objective, Value: format(s.Counts.Over, ""),
			Threshold: fmt.Sprintf(">= 3 and > %s + 2√%s (the budget and its Poisson margin)", format(s.Counts.N*budget, ""), format(s.Counts.N*budget, ""))},
		{Name: "share over " + objective, Value: fmt.Sprintf("%.1f%%", 100*share), Threshold: fmt.Sprintf("<= %.0f%% (p99 objective %s, targetSpecLatency)", 100*budget, objective)},
		{Name: "spec latency p99 (acted on)", Value: format(s.P99, "s")},
		{Name: "still behind at the end", Value: fmt.Sprint(s.Pending)},
		{Name: "in flight at the start or end, under the objective (not judged)", Value: format(s.Undecided, "")},
		{Name: "objects watched for", Value: watched.String()},
	}
	summary := fmt.Sprintf("%.1f%% of %.0f spec changes of %s took over %s until %s acted on them, in the last %s (p99 objective %s: at most %.0f%%)",
		100*share, s.Counts.N, s.Kind, objective, s.Queue, watched, objective, 100*budget)
	if len(s.Oldest) > 0 {
		names := make([]string, 0, len(s.Oldest))
		for _, o := range s.Oldest {
			names = append(names, fmt.Sprintf("%s (generation %d, observed %d, behind %s)", o.Object, o.Generation, o.ObservedGeneration, behind(o)))
		}
		evs = append(evs, Evidence{Name: "behind longest", Value: strings.Join(names, "; ")})
		summary += "; behind longest: " + s.Oldest[0].Object
	}
	return newFinding("spec-latency-slo", t.Kind, t.ID, s.Queue, summary, evs...), true
}

// behind is how long an object has been behind: "45s", ">= 2m0s" when its change was before
// the watch.
func behind(o objects.PendingObject) string {
	d := format(o.BehindSeconds, "s")
	if o.BehindAtLeast {
		return ">= " + d
	}
	return d
}
