package health

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"time"
)

// startTolerance is how far two readings of process_start_time_seconds of one process may
// differ: exporters derive it from the boot time and the process's start tick, both fixed.
const startTolerance = 1.0

// Restarted says why prev and cur cannot be two samples of one process ("" when nothing
// says so): the process's start time changed, or a counter fell (counters only fall when
// the process that keeps them starts again). Two samples of different processes make no
// window: the later one's counters count from its own start, not from the first sample.
func Restarted(prev, cur *Snapshot) string {
	if prev == nil || cur == nil {
		return ""
	}
	if a, b := prev.Process.StartTime, cur.Process.StartTime; !math.IsNaN(a) && !math.IsNaN(b) && math.Abs(a-b) > startTolerance {
		return fmt.Sprintf("process_start_time_seconds changed from %s to %s", unixText(a), unixText(b))
	}
	if name, a, b, ok := fallenCounter(prev, cur); ok {
		return fmt.Sprintf("the counter %s fell from %s to %s", name, number(a), number(b))
	}
	return ""
}

// fallenCounter finds a counter (in a stable order) that is lower in cur than in prev.
func fallenCounter(prev, cur *Snapshot) (name string, before, after float64, ok bool) {
	fell := func(a, b float64) bool { return !math.IsNaN(a) && !math.IsNaN(b) && b < a }
	if fell(prev.Process.CPUSeconds, cur.Process.CPUSeconds) {
		return processCPU, prev.Process.CPUSeconds, cur.Process.CPUSeconds, true
	}
	for _, n := range slices.Sorted(maps.Keys(cur.Queues)) {
		p, c := prev.Queues[n], cur.Queues[n]
		if p == nil {
			continue
		}
		switch {
		case fell(p.Adds, c.Adds):
			return wqAdds + `{name="` + n + `"}`, p.Adds, c.Adds, true
		case fell(p.Retries, c.Retries):
			return wqRetries + `{name="` + n + `"}`, p.Retries, c.Retries, true
		case fell(countOf(p.WorkDuration), countOf(c.WorkDuration)):
			return wqWorkDur + `_count{name="` + n + `"}`, p.WorkDuration.Count, c.WorkDuration.Count, true
		}
	}
	for _, n := range slices.Sorted(maps.Keys(cur.Controllers)) {
		p, c := prev.Controllers[n], cur.Controllers[n]
		if p == nil {
			continue
		}
		if fell(p.Reconciles(), c.Reconciles()) {
			return crReconcileTotal + `{controller="` + n + `"}`, p.Reconciles(), c.Reconciles(), true
		}
	}
	return "", 0, 0, false
}

// SinceStart is the window a restarted target's figures can honestly be taken over: from
// the later process's start to cur, when its start time is known and lies after prev was
// taken (so that none of prev's counts is in cur's). ok is false otherwise: then only
// cur's lifetime figures are known.
func SinceStart(prev, cur *Snapshot) (start time.Time, window time.Duration, ok bool) {
	s := cur.Process.StartTime
	if math.IsNaN(s) || math.IsInf(s, 0) || cur.Time.IsZero() || prev.Time.IsZero() {
		return time.Time{}, 0, false
	}
	start = time.Unix(0, int64(s*1e9))
	if !start.After(prev.Time) || !cur.Time.After(start) {
		return time.Time{}, 0, false
	}
	return start, cur.Time.Sub(start), true
}

// Started is an empty snapshot of a process at its start: every counter zero, no queue yet.
// Comparing a restarted process's page against it gives the figures since its start.
func Started(at time.Time) *Snapshot {
	return FromFamilies(nil, at)
}

func unixText(s float64) string {
	if math.IsInf(s, 0) || math.Abs(s) > 1e11 {
		return number(s)
	}
	return time.Unix(0, int64(s*1e9)).UTC().Format(time.RFC3339)
}

func number(v float64) string {
	return fmt.Sprintf("%g", v)
}
