package findings

import (
	"math"
	"testing"
)

// Durations past what time.Duration holds (292 years), a broken page's values, are said to
// be past it in the evidence, never printed negative from an overflow.
func TestFormatPastTheLongestDuration(t *testing.T) {
	for _, tt := range []struct {
		in   float64
		want string
	}{
		{1e10, ">292y"}, {1e300, ">292y"}, {-1e12, "<-292y"}, {math.Inf(1), "unknown"}, {1.5, "1.5s"}, {9e9, "2500000h0m0s"},
	} {
		if got := format(tt.in, "s"); got != tt.want {
			t.Errorf("format(%g, s) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
