package findings

import (
	"fmt"
	"math"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// backlog judges the depth of a queue. A queue that grew by RisingDepth or more over the
// window is backlog-growing, whatever its depth; one at BacklogDepth or more that did not grow
// that much (steady, draining, or one sample, whose trend is unknown) is backlog-high. The
// name never contradicts the trend in the evidence.
func backlog(t Target, q health.QueueStats, th Thresholds) (Finding, bool) {
	growing := t.Window > 0 && q.Depth-q.DepthBefore >= th.RisingDepth
	if !growing && !(q.Depth >= th.BacklogDepth) {
		return Finding{}, false
	}
	rate := []Evidence{
		{Name: "completions/s", Value: format(q.CompletionsPerSecond, "/s")},
		{Name: "drain time", Value: format(drainTime(q), "s")},
	}
	if growing {
		return newFinding("backlog-growing", t.Kind, t.ID, q.Queue,
			fmt.Sprintf("%.0f items wait in %s, up from %.0f %s", q.Depth, q.Queue, q.DepthBefore, over(t)),
			append([]Evidence{{Name: "depth", Value: format(q.Depth, "")},
				{Name: "depth at the first sample", Value: format(q.DepthBefore, "")},
				{Name: "growth " + over(t), Value: "+" + format(q.Depth-q.DepthBefore, ""), Threshold: fmt.Sprintf(">= +%g", th.RisingDepth)}},
				rate...)...).as(health.StatusBacklog), true
	}
	return newFinding("backlog-high", t.Kind, t.ID, q.Queue,
		fmt.Sprintf("%.0f items wait in %s%s", q.Depth, q.Queue, trend(t, q, th)),
		append([]Evidence{{Name: "depth", Value: format(q.Depth, ""), Threshold: fmt.Sprintf(">= %g", th.BacklogDepth)},
			{Name: "depth at the first sample", Value: format(q.DepthBefore, "")}},
			rate...)...).as(health.StatusBacklog), true
}

// trend says how a deep queue that does not grow by RisingDepth moved over the window.
func trend(t Target, q health.QueueStats, th Thresholds) string {
	switch {
	case t.Window == 0:
		return " (one sample: whether it grows or drains is unknown)"
	case math.IsNaN(q.DepthBefore):
		return " (the queue was not in the first sample: whether it grows or drains is unknown)"
	case q.Depth < q.DepthBefore:
		return fmt.Sprintf(", down from %.0f %s: draining, but deep", q.DepthBefore, over(t))
	case q.Depth > q.DepthBefore:
		return fmt.Sprintf(", up from %.0f %s (less than %g)", q.DepthBefore, over(t), th.RisingDepth)
	}
	return fmt.Sprintf(", as many as %s: steady, but deep", over(t))
}

// drainTime is depth / completion rate: how long the backlog takes to clear at the current pace.
func drainTime(q health.QueueStats) float64 {
	if q.CompletionsPerSecond > 0 {
		return q.Depth / q.CompletionsPerSecond
	}
	return math.NaN()
}
