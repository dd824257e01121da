package render

import (
	"fmt"
	"math"
	"strconv"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// histChart is a latency distribution drawn as bars, one per histogram bucket, with the
// p50/p90/p99 marked, for inline SVG.
type histChart struct {
	Title         string
	Width, Height float64
	PlotX, PlotY  float64
	PlotW, PlotH  float64
	Bars          []histBar
	YTicks        []tick
	Marks         []histMark
	Total         string
}

// histBar is one bucket: items in (previous bound, Bound].
type histBar struct {
	X, Y, W, H float64
	Label      string
	LabelX     float64
	Tip        string
}

// histMark is a quantile line.
type histMark struct {
	X, LabelY float64
	Name      string
	Value     string
	// Anchor and DX keep the label inside the chart near its right edge.
	Anchor string
	DX     float64
}

const (
	histWidth  = 470.0
	histHeight = 250.0
	histLeft   = 44.0
	histTop    = 64.0
	histBottom = 44.0
)

// latencyRow pairs the queue and work latency charts of one queue.
type latencyRow struct {
	Target, Queue         string
	Note                  string
	QueueChart, WorkChart *histChart
}

// maxLatencyRows is how many of the busiest queues get latency charts.
const maxLatencyRows = 4

// newLatencyRows charts the busiest queues (Events come busiest first) that saw items over
// the window, or says why there is nothing to draw.
func newLatencyRows(r view.Report) ([]latencyRow, string) {
	var out []latencyRow
	with := 0
	for _, e := range r.Events {
		if len(e.QueueBuckets) == 0 && len(e.WorkBuckets) == 0 {
			continue
		}
		with++
		if len(out) == maxLatencyRows {
			continue
		}
		row := latencyRow{Target: e.Target, Queue: e.Queue,
			QueueChart: newHistChart("Queue latency: waiting in the queue", e.QueueBuckets, e.QueueP50Seconds, e.QueueP90Seconds, e.QueueP99Seconds),
			WorkChart:  newHistChart("Work latency: in the worker (reconcile)", e.WorkBuckets, e.WorkP50Seconds, e.WorkP90Seconds, e.WorkP99Seconds)}
		row.Note = fmt.Sprintf("adds %s/s, done %s/s, retries %s/s", Rate(e.AddsPerSecond), Rate(e.CompletionsPerSecond), Rate(e.RetriesPerSecond))
		out = append(out, row)
	}
	window := "over the last " + r.Window
	if r.Window == "lifetime" {
		window = "since each process started"
	}
	if with == 0 {
		return nil, "No queue handled an item " + window + ": no latency distribution to draw."
	}
	return out, fmt.Sprintf("Latency distributions %s of the %d busiest of %s that handled items: "+
		"items per histogram bucket (upper bound labelled), with p50, p90 and p99 marked.", window, len(out), printable.Plural(with, "queue"))
}

// newHistChart lays out one distribution; nil when it has no observation.
func newHistChart(title string, buckets []view.Bucket, p50, p90, p99 *float64) *histChart {
	bounds := make([]float64, len(buckets))
	total, max := 0.0, 0.0
	for i, b := range buckets {
		bounds[i], _ = strconv.ParseFloat(b.LE, 64) // "+Inf" parses as +Inf
		total += b.Count
		max = math.Max(max, b.Count)
	}
	if total == 0 {
		return nil
	}
	// Keep the buckets from one before the first non-empty one to one after the last.
	first, last := 0, len(buckets)-1
	for first < last && buckets[first].Count == 0 {
		first++
	}
	for last > first && buckets[last].Count == 0 {
		last--
	}
	first, last = max0(first-1), min(len(buckets)-1, last+1)

	c := &histChart{Title: title, Width: histWidth, Height: histHeight, PlotX: histLeft, PlotY: histTop,
		PlotW: histWidth - histLeft - 10, PlotH: histHeight - histTop - histBottom, Total: trim(fmt.Sprintf("%.1f", total))}
	n := last - first + 1
	bw := c.PlotW / float64(n)
	top := niceCeil(max)
	every := (n + 11) / 12 // at most 12 labels
	for i := first; i <= last; i++ {
		k := i - first
		h := buckets[i].Count / top * c.PlotH
		bar := histBar{X: c.PlotX + float64(k)*bw + 1, W: bw - 2, H: h, Y: c.PlotY + c.PlotH - h,
			LabelX: c.PlotX + (float64(k)+1)*bw, Tip: fmt.Sprintf("%s items in %s", trim(fmt.Sprintf("%.1f", buckets[i].Count)), bucketRange(bounds, i))}
		if (last-i)%every == 0 {
			bar.Label = "≤" + boundLabel(bounds[i])
			if math.IsInf(bounds[i], 1) {
				bar.Label = "+Inf"
			}
		}
		c.Bars = append(c.Bars, bar)
	}
	for _, v := range []float64{0, top / 2, top} {
		c.YTicks = append(c.YTicks, tick{X: c.PlotX - 6, Y: c.PlotY + c.PlotH - v/top*c.PlotH, Label: trim(fmt.Sprintf("%.1f", v))})
	}
	for i, q := range []struct {
		name string
		v    *float64
	}{{"p50", p50}, {"p90", p90}, {"p99", p99}} {
		if q.v == nil {
			continue
		}
		pos, ok := position(bounds, *q.v, first, last)
		if !ok {
			continue
		}
		m := histMark{X: c.PlotX + pos*bw, LabelY: c.PlotY - 30 + float64(i)*11, Name: q.name, Value: Seconds(q.v), Anchor: "start", DX: 3}
		if m.X > c.PlotX+c.PlotW*0.7 {
			m.Anchor, m.DX = "end", -3
		}
		c.Marks = append(c.Marks, m)
	}
	return c
}

// position places value v on the bucket axis, in bucket widths from the first bucket shown,
// interpolating linearly inside its bucket as histogram_quantile does.
func position(bounds []float64, v float64, first, last int) (float64, bool) {
	for i := first; i <= last; i++ {
		lower := 0.0
		if i > 0 {
			lower = bounds[i-1]
		}
		if v > bounds[i] {
			continue
		}
		frac := 1.0
		if math.IsInf(bounds[i], 1) {
			frac = 0
		} else if bounds[i] > lower {
			frac = math.Max(0, (v-lower)/(bounds[i]-lower))
		}
		return float64(i-first) + frac, true
	}
	return 0, false
}

func boundLabel(le float64) string {
	if math.IsInf(le, 1) {
		return "+Inf"
	}
	return Seconds(&le)
}

func bucketRange(bounds []float64, i int) string {
	if i == 0 {
		return "≤ " + boundLabel(bounds[0])
	}
	return boundLabel(bounds[i-1]) + " to " + boundLabel(bounds[i])
}

func max0(i int) int {
	if i < 0 {
		return 0
	}
	return i
}
