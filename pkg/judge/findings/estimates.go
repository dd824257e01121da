package findings

import (
	"fmt"
	"math"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
)

// quantile writes a quantile estimate in seconds: ">= 100ms" when the histogram proves only a
// lower bound (the quantile's rank lies above the highest finite bucket).
func quantile(v float64, atLeast bool) string {
	if atLeast && !math.IsNaN(v) {
		return ">= " + format(v, "s")
	}
	return format(v, "s")
}

// workP99 is a queue's work p99 as the rules judge it: over the window, or since start when no
// item finished within the window (a slow controller may finish none in a few seconds).
type workP99 struct {
	p99, p50               float64
	p99AtLeast, p50AtLeast bool
	when                   string
	// n is the items the quantiles rest on; sinceStart, that they are the process's.
	n          float64
	sinceStart bool
}

// figure is the p99 with what it rests on.
func (w workP99) figure() figure {
	return figure{value: w.p99, atLeast: w.p99AtLeast, n: w.n, noun: "item", sinceStart: w.sinceStart}
}

// undecided says why a queue the findings leave OK may not be: a p99 the histogram knows only
// to be at least its highest finite bucket bound, which is below the threshold that judges it,
// so that the buckets cannot tell whether it reaches the threshold. "" when there is none.
func undecided(t Target, q health.QueueStats, th Thresholds) string {
	if w := workQuantiles(t, q); w.p99AtLeast && w.p99 < th.SlowWork.Seconds() {
		return fmt.Sprintf("work p99 %s %s: above the highest finite bucket, the histogram cannot tell whether it reaches %s (slowWork)",
			quantile(w.p99, true), w.when, th.SlowWork)
	}
	if q.QueueP99AtLeast && q.QueueP99 < th.SaturatedQueueWait.Seconds() && q.Depth > 0 {
		return fmt.Sprintf("queue p99 %s %s: above the highest finite bucket, the histogram cannot tell whether it reaches %s (saturatedQueueWait)",
			quantile(q.QueueP99, true), over(t), th.SaturatedQueueWait)
	}
	return ""
}

// estimated writes an Estimate as quantile does.
func estimated(e health.Estimate) string {
	return quantile(e.Value, e.AtLeast)
}

// loneSlowItem says why a window's work p99 at or over slow says little of the controller:
// one item of several took that long ("1 of 40 items over 5s"), and a p99 of fewer than a
// hundred items is its slowest. A slow controller is slow on every item, or on more than one;
// one long item among fast ones is that object's (stuckAfter judges an item that never ends).
// "" when more than one item, or every item, possibly took that long, or without a window.
func loneSlowItem(t Target, q health.QueueStats, slow Duration) string {
	if t.Prev == nil || t.Window <= 0 {
		return ""
	}
	cur, prev := t.Cur.Queues[q.Queue], t.Prev.Queues[q.Queue]
	if cur == nil || prev == nil {
		return ""
	}
	d := cur.WorkDuration.Since(prev.WorkDuration)
	if d == nil {
		return ""
	}
	_, possibly := d.Above(slow.Seconds())
	if !(possibly < 2) || !(d.Count > possibly) {
		return ""
	}
	return fmt.Sprintf("%s of %s over %s", format(possibly, ""), printable.Plural(int(d.Count), "item"), slow)
}
