package findings

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// maxSeconds is the longest duration Go's time.Duration holds, about 292 years.
const maxSeconds = float64(math.MaxInt64) / float64(time.Second)

// format writes an evidence value for people: unit "s" seconds, "%" a ratio as a percentage,
// "/s" a rate, "B" bytes, "" a count. NaN is "unknown".
func format(v float64, unit string) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "unknown"
	}
	switch unit {
	case "s":
		// Past what a time.Duration holds (a broken page's value): said so, not overflowed.
		if v >= maxSeconds {
			return ">292y"
		}
		if v <= -maxSeconds {
			return "<-292y"
		}
		d := time.Duration(v * float64(time.Second))
		switch {
		case d >= time.Second:
			return d.Round(10 * time.Millisecond).String()
		case d >= time.Millisecond:
			return d.Round(10 * time.Microsecond).String()
		}
		return d.String()
	case "%":
		return strconv.FormatFloat(100*v, 'f', 1, 64) + "%"
	case "/s":
		return strconv.FormatFloat(v, 'f', 2, 64) + "/s"
	case "B":
		return fmt.Sprintf("%.1f MiB", v/(1<<20))
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
