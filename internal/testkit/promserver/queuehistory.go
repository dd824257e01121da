package promserver

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// QueueHistory is the history of one controller's queue, to backfill: from Start to End,
// one sample every Step, its workqueue_adds_total growing by AddsPerSecond, its depth
// Depth, and each add's time in queue observed in workqueue_queue_duration_seconds (half
// under 10 ms, nine tenths under 100 ms, all under 1 s).
type QueueHistory struct {
	// Labels are the series' labels (job, instance, namespace, pod, name...).
	Labels        map[string]string
	Start, End    time.Time
	Step          time.Duration
	AddsPerSecond float64
	Depth         float64
}

// OpenMetrics renders the history in the OpenMetrics text format, "# EOF" last, as promtool
// tsdb create-blocks-from openmetrics reads it.
func (h QueueHistory) OpenMetrics() string {
	var b strings.Builder
	labels := func(extra string) string {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(h.Labels)) {
			parts = append(parts, fmt.Sprintf("%s=%q", k, h.Labels[k]))
		}
		if extra != "" {
			parts = append(parts, extra)
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	each := func(f func(ts int64, adds float64)) {
		for t := h.Start; !t.After(h.End); t = t.Add(h.Step) {
			f(t.Unix(), h.AddsPerSecond*t.Sub(h.Start).Seconds())
		}
	}
	b.WriteString("# TYPE workqueue_adds counter\n")
	each(func(ts int64, adds float64) { fmt.Fprintf(&b, "workqueue_adds_total%s %g %d\n", labels(""), adds, ts) })
	b.WriteString("# TYPE workqueue_depth gauge\n")
	each(func(ts int64, _ float64) { fmt.Fprintf(&b, "workqueue_depth%s %g %d\n", labels(""), h.Depth, ts) })
	b.WriteString("# TYPE workqueue_queue_duration_seconds histogram\n")
	each(func(ts int64, adds float64) {
		for _, bk := range []struct {
			le   string
			frac float64
		}{{"0.01", 0.5}, {"0.1", 0.9}, {"1.0", 1}, {"+Inf", 1}} {
			fmt.Fprintf(&b, "workqueue_queue_duration_seconds_bucket%s %g %d\n", labels(`le="`+bk.le+`"`), adds*bk.frac, ts)
		}
		fmt.Fprintf(&b, "workqueue_queue_duration_seconds_count%s %g %d\n", labels(""), adds, ts)
		fmt.Fprintf(&b, "workqueue_queue_duration_seconds_sum%s %g %d\n", labels(""), adds*0.03, ts)
	})
	b.WriteString("# EOF\n")
	return b.String()
}
