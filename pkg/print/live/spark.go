package live

import (
	"math"
	"strings"
)

// history keeps the last points of a queue's depth and adds/s over the session.
type history struct {
	depth, adds []float64
}

// keep is how many points a history keeps: more than any sparkline is wide.
const keep = 120

// HistoryPoints is how many points of history before the session a queue's history can start
// with: with the first frame's point, they fill the table's sparklines.
const HistoryPoints = sparkWidth - 1

// tail is a copy of the last HistoryPoints points of s.
func tail(s []float64) []float64 {
	return append([]float64(nil), s[max(0, len(s)-HistoryPoints):]...)
}

func (h *history) add(depth, adds *float64) {
	h.depth = push(h.depth, depth)
	h.adds = push(h.adds, adds)
}

func push(s []float64, v *float64) []float64 {
	x := math.NaN()
	if v != nil {
		x = *v
	}
	s = append(s, x)
	if len(s) > keep {
		s = s[len(s)-keep:]
	}
	return s
}

var ticks = []rune("▁▂▃▄▅▆▇█")

// sparkline draws the last width points of s, scaled from 0 to their highest; an unknown
// point is a blank, and the line is padded on the left to width.
func sparkline(s []float64, width int) string {
	if len(s) > width {
		s = s[len(s)-width:]
	}
	top := 0.0
	for _, v := range s {
		if v > top {
			top = v
		}
	}
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", width-len(s)))
	for _, v := range s {
		switch {
		case math.IsNaN(v):
			b.WriteRune(' ')
		case top == 0:
			b.WriteRune(ticks[0])
		default:
			b.WriteRune(ticks[min(len(ticks)-1, int(v/top*float64(len(ticks)-1)+0.5))])
		}
	}
	return b.String()
}
