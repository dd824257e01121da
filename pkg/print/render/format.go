package render

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// maxSeconds is the longest duration Go's time.Duration holds, about 292 years: a longer one
// (a broken page's value) is shown as past it rather than overflowing into a negative one.
const maxSeconds = float64(math.MaxInt64) / float64(time.Second)

// beyond is how a duration longer than maxSeconds is shown.
const beyond = ">292y"

// Seconds formats a duration given in seconds for a table: 350µs, 12ms, 1.2s, 3m4s, >292y;
// "-" when unknown.
func Seconds(v *float64) string {
	if v == nil || math.IsNaN(*v) {
		return "-"
	}
	s := *v
	switch {
	case s >= maxSeconds:
		return beyond
	case s <= -maxSeconds:
		return "<-292y"
	case s == 0:
		return "0s"
	case s < 1e-6:
		return fmt.Sprintf("%.0fns", s*1e9)
	case s < 1e-3:
		return fmt.Sprintf("%.0fµs", s*1e6)
	case s < 0.01:
		return trim(fmt.Sprintf("%.1f", s*1e3)) + "ms"
	case s < 1:
		return fmt.Sprintf("%.0fms", s*1e3)
	case s < 60:
		return trim(fmt.Sprintf("%.1f", s)) + "s"
	}
	return time.Duration(s * float64(time.Second)).Round(time.Second).String()
}

// Quantile formats a quantile estimate given in seconds as Seconds does, as a bound
// (">= 100ms") when it is only known to be that or more: its rank lies above the histogram's
// highest finite bucket.
func Quantile(v *float64, atLeast bool) string {
	if atLeast && v != nil && !math.IsNaN(*v) {
		return ">= " + Seconds(v)
	}
	return Seconds(v)
}

// Rate formats a per-second rate: 0, 0.05, 3.2, 120; "-" when unknown.
func Rate(v *float64) string {
	if v == nil {
		return "-"
	}
	r := *v
	switch {
	case r == 0:
		return "0"
	case r < 0.01:
		return "<0.01"
	case r < 10:
		return trim(fmt.Sprintf("%.2f", r))
	case r < 100:
		return trim(fmt.Sprintf("%.1f", r))
	}
	return fmt.Sprintf("%.0f", r)
}

// Count formats a gauge of items; "-" when unknown.
func Count(v *float64) string {
	if v == nil {
		return "-"
	}
	return strconv.FormatFloat(*v, 'f', -1, 64)
}

// Workers formats active/max workers; "-" when unknown.
func Workers(active, max *float64) string {
	if active == nil && max == nil {
		return "-"
	}
	return Count(active) + "/" + Count(max)
}

// ByPriority formats the depth by priority of a priority queue, highest priority (served
// first) first: "0:250,-100:40"; "-" for a plain queue.
func ByPriority(m map[string]*float64) string {
	if len(m) == 0 {
		return "-"
	}
	cells := make([]string, 0, len(m))
	for _, p := range health.Priorities(m) {
		cells = append(cells, p+":"+Count(m[p]))
	}
	return strings.Join(cells, ",")
}

func trim(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}
