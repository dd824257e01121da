package findings

import (
	"fmt"
	"math"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// priorityStarvation judges controller-runtime's priority queue: items of a low priority (the
// initial list and unchanged resyncs enter at -100, events at 0) that did not drain over the
// window while the workers, all busy, served the higher priorities, which kept up. Only two
// samples can tell: with one, or on a plain queue, it says nothing.
//
// When every priority grows, the workers do not keep up with the events either: that is
// workers-saturated, not starvation, and this rule stays silent. When it speaks, the workers
// are saturated by the higher priorities, and the caller drops the weaker readings
// (workers-saturated, slow-reconcile) on the queue.
func priorityStarvation(t Target, q health.QueueStats, th Thresholds) []Finding {
	cur, before := q.DepthByPriority, q.DepthByPriorityBefore
	if t.Window <= 0 || len(cur) == 0 || len(before) == 0 {
		return nil
	}
	if q.ActiveWorkers < q.MaxWorkers || !(q.CompletionsPerSecond > 0) {
		return nil // a free worker would take the low items; no work done is no preference
	}
	var starved []string
	var low, lowBefore, higher, higherBefore float64
	for _, p := range health.Priorities(cur) {
		pv, ok := health.PriorityOf(p)
		if !ok {
			continue
		}
		h, seen := above(cur, pv)
		hb, seenBefore := above(before, pv)
		d, db := cur[p], before[p]
		steady := hb > 0 && h > 0 || q.QueueP99 >= th.SaturatedQueueWait.Seconds()
		if !(seen || seenBefore) || !(db > 0) || !(d >= db) || !(h-hb < th.RisingDepth) || !steady {
			continue
		}
		if len(starved) == 0 { // the highest starved priority: the higher ones are those above it
			higher, higherBefore = h, hb
		}
		starved = append(starved, p)
		low, lowBefore = low+d, lowBefore+db
	}
	if len(starved) == 0 {
		return nil
	}
	ev := func(name string, v float64, unit string, thr string) Evidence {
		return Evidence{Name: name, Value: format(v, unit), Threshold: thr}
	}
	what := "priority " + strings.Join(starved, " and ")
	return []Finding{newFinding("priority-starvation", t.Kind, t.ID, q.Queue,
		fmt.Sprintf("%.0f items of %s in %s did not drain %s (%.0f at the first sample) while every worker (%s busy) served higher priorities, %.1f items a second",
			low, what, q.Queue, over(t), lowBefore, workersEvidence(q).Value, q.CompletionsPerSecond),
		Evidence{Name: "depth by priority at the first sample", Value: byPriority(before)},
		Evidence{Name: "depth by priority", Value: byPriority(cur), Threshold: what + ": > 0 and not below the first sample"},
		ev("higher-priority depth", higher, "", fmt.Sprintf("grew by less than %g (risingDepth) from %.0f: the higher priorities keep up", th.RisingDepth, higherBefore)),
		ev("completions/s", q.CompletionsPerSecond, "/s", "> 0"),
		workersEvidence(q),
		Evidence{Name: "queue p99 (items served)", Value: quantile(q.QueueP99, q.QueueP99AtLeast),
			Threshold: ">= " + th.SaturatedQueueWait.String() + ", or higher-priority items waiting at both samples"},
	).as(health.StatusSaturated)}
}

// above sums the depth of the integer priorities of m higher than p; seen says whether any
// such priority has a series.
func above(m map[string]float64, p int) (sum float64, seen bool) {
	for label, v := range m {
		if hv, ok := health.PriorityOf(label); ok && hv > p && !math.IsNaN(v) {
			sum, seen = sum+v, true
		}
	}
	return sum, seen
}

// byPriority is "0:250,-100:40", highest priority first.
func byPriority(m map[string]float64) string {
	cells := make([]string, 0, len(m))
	for _, p := range health.Priorities(m) {
		cells = append(cells, p+":"+format(m[p], ""))
	}
	return strings.Join(cells, ",")
}
