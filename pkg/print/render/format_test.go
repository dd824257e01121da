package render

import (
	"math"
	"testing"
)

func f(v float64) *float64 { return &v }

func TestSeconds(t *testing.T) {
	for _, tt := range []struct {
		in   *float64
		want string
	}{
		{nil, "-"}, {f(0), "0s"}, {f(5e-9), "5ns"}, {f(350e-6), "350µs"}, {f(0.0025), "2.5ms"},
		{f(0.012), "12ms"}, {f(1.2), "1.2s"}, {f(12), "12s"}, {f(184), "3m4s"}, {f(7322), "2h2m2s"},
	} {
		if got := Seconds(tt.in); got != tt.want {
			t.Errorf("Seconds(%v) = %q, want %q", *orNaN(tt.in), got, tt.want)
		}
	}
}

func TestRateCountWorkers(t *testing.T) {
	for _, tt := range []struct {
		in   *float64
		want string
	}{{nil, "-"}, {f(0), "0"}, {f(0.001), "<0.01"}, {f(0.5), "0.5"}, {f(3.25), "3.25"}, {f(42.42), "42.4"}, {f(1234.5), "1234"}} {
		if got := Rate(tt.in); got != tt.want {
			t.Errorf("Rate = %q, want %q", got, tt.want)
		}
	}
	if Count(f(120)) != "120" || Count(nil) != "-" || Workers(f(1), f(4)) != "1/4" || Workers(nil, nil) != "-" {
		t.Error("Count/Workers")
	}
}

func orNaN(v *float64) *float64 {
	if v == nil {
		return f(math.NaN())
	}
	return v
}

func TestByPriority(t *testing.T) {
	m := map[string]*float64{"-100": f(40), "0": f(250), "exceeded_cardinality_limit": f(1), "10": nil}
	if got, want := ByPriority(m), "10:-,0:250,-100:40,exceeded_cardinality_limit:1"; got != want {
		t.Errorf("ByPriority = %q, want %q (highest priority first)", got, want)
	}
	if got := ByPriority(nil); got != "-" {
		t.Errorf("ByPriority of a plain queue = %q, want -", got)
	}
}

// Durations past what time.Duration holds (292 years) are said to be past it, never printed
// negative from an overflow; the ages of section 1 and 8 alike.
func TestSecondsPastTheLongestDuration(t *testing.T) {
	for _, tt := range []struct {
		in   float64
		want string
	}{
		{1e10, ">292y"}, {1e300, ">292y"}, {math.Inf(1), ">292y"}, {-1e12, "<-292y"}, {math.NaN(), "-"},
		{9e9, "2500000h0m0s"},
	} {
		if got := Seconds(f(tt.in)); got != tt.want {
			t.Errorf("Seconds(%g) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, tt := range []struct {
		in   float64
		want string
	}{
		{1e10, ">292y"}, {1e300, ">292y"}, {math.Inf(1), ">292y"}, {math.NaN(), "-"}, {9e9, "104166d"}, {3 * 86400, "3d"},
	} {
		if got := age(tt.in); got != tt.want {
			t.Errorf("age(%g) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
