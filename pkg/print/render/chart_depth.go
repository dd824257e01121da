package render

import (
	"fmt"
	"math"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// depthChart is a horizontal bar chart of workqueue depth, drawn as inline SVG by the html
// template. Coordinates are in SVG user units.
type depthChart struct {
	Width, Height float64
	// PlotX and PlotW are where the bars start and the widest bar's width.
	PlotX, PlotW float64
	Bars         []depthBar
	Ticks        []tick
	Label        string
}

// depthBar is one queue.
type depthBar struct {
	Y, W   float64
	Name   string
	Full   string
	Value  string
	Class  string
	TextY  float64
	ValueX float64
	Tip    string
}

// tick is an axis mark.
type tick struct {
	X, Y  float64
	Label string
}

const (
	depthTop     = 24.0
	depthRow     = 24.0
	depthLabelW  = 330.0
	depthWidth   = 860.0
	depthMaxBars = 12
)

// newDepthChart charts the deepest non-empty queues (at most depthMaxBars), or returns nil and
// says why when every queue is empty.
func newDepthChart(backlog []view.Backlog) (*depthChart, string) {
	var rows []view.Backlog
	for _, b := range backlog {
		if b.Depth != nil && *b.Depth > 0 {
			rows = append(rows, b)
		}
	}
	if len(rows) == 0 {
		if len(backlog) == 0 {
			return nil, "No workqueue was read: no depth to chart."
		}
		return nil, allEmpty(len(backlog)) + ": no depth to chart."
	}
	note := fmt.Sprintf("Depth of the %d non-empty queues, deepest first.", len(rows))
	if len(rows) > depthMaxBars {
		note = fmt.Sprintf("Depth of the %d deepest of %d non-empty queues.", depthMaxBars, len(rows))
		rows = rows[:depthMaxBars]
	}
	max := 0.0
	for _, b := range rows {
		max = math.Max(max, *b.Depth)
	}
	top := niceCeil(max)
	c := &depthChart{Width: depthWidth, PlotX: depthLabelW, PlotW: depthWidth - depthLabelW - 70, Label: note}
	c.Height = depthTop + float64(len(rows))*depthRow + 8
	for i, b := range rows {
		y := depthTop + float64(i)*depthRow
		w := math.Max(1, *b.Depth/top*c.PlotW)
		full := b.Target + " " + b.Queue
		c.Bars = append(c.Bars, depthBar{Y: y + 4, W: w, Name: shorten(full, 48), Full: full, Value: Count(b.Depth),
			Class: statusClass(b.Status), TextY: y + 16, ValueX: c.PlotX + w + 6,
			Tip: fmt.Sprintf("%s: depth %s, %s, %s", full, Count(b.Depth), b.Trend, b.Status)})
	}
	for _, v := range []float64{0, top / 2, top} {
		c.Ticks = append(c.Ticks, tick{X: c.PlotX + v/top*c.PlotW, Y: depthTop - 8, Label: trim(fmt.Sprintf("%.1f", v))})
	}
	return c, note
}

// statusClass maps a queue status to a bar colour: ok, or the severity it suggests.
func statusClass(status string) string {
	switch status {
	case "OK":
		return "ok"
	case "STUCK", "FAILING", "ERROR":
		return "critical"
	}
	return "warning"
}

// niceCeil rounds v up to 1, 2 or 5 times a power of ten, for axis ends.
func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if v <= m*p {
			return m * p
		}
	}
	return 10 * p
}

// shorten cuts s to n runes with an ellipsis in the middle, where queue names differ least.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	half := (n - 1) / 2
	return string(r[:half]) + "…" + string(r[len(r)-(n-1-half):])
}
