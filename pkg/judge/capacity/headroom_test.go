package capacity

import (
	"math"
	"testing"
)

// MaxLoad agrees with the examples worked by hand and with M/M/1's closed form.
func TestMaxLoadExamples(t *testing.T) {
	for _, c := range []struct {
		s       float64
		workers int
		cs2     float64
		want    float64
	}{
		{0.5, 4, 0, 6.03},
		{0.5, 4, 1, 4.70},
		{1, 2, 0, 0.64},
	} {
		got := MaxLoad(c.s, c.workers, c.cs2, 1)
		if math.Abs(got-c.want) > 0.01 {
			t.Errorf("MaxLoad(s %v, c %d, cs2 %v, 1s) = %.4f, want %.2f", c.s, c.workers, c.cs2, got, c.want)
		}
	}
	// M/M/1: C = ρ, so P99 = ln(100ρ)/(μ−λ), which at λ* is the target.
	s := 0.1
	l := MaxLoad(s, 1, 1, 1)
	if p := math.Log(100*l*s) / (1/s - l); math.Abs(p-1) > 1e-3 {
		t.Errorf("M/M/1: P99 at λ* %.4f is %.5f, want the target 1s", l, p)
	}
	for _, bad := range []float64{MaxLoad(0, 4, 0, 1), MaxLoad(1, 0, 0, 1), MaxLoad(1, MaxWorkers+1, 0, 1)} {
		if !math.IsNaN(bad) {
			t.Errorf("unknown input gave %v, want NaN", bad)
		}
	}
}

// The headroom is consistent with the workers CD217 asks for: just under λ* the present
// workers suffice, just over they do not.
func TestMaxLoadAgreesWithWorkersFor(t *testing.T) {
	for _, s := range []float64{0.01, 0.2, 0.5, 1, 3} {
		for _, c := range []int{1, 2, 4, 10, 50} {
			for _, cs2 := range []float64{0, 0.5, 1, 2} {
				l := MaxLoad(s, c, cs2, 1)
				if l <= 0 {
					continue // no load meets the target (a service time past it)
				}
				if n := WorkersFor(0.99*l, s, cs2, 1); n > c {
					t.Errorf("s %v c %d cs2 %v: λ* %.4g, 0.99λ* needs %d workers", s, c, cs2, l, n)
				}
				if n := WorkersFor(1.01*l, s, cs2, 1); n <= c {
					t.Errorf("s %v c %d cs2 %v: λ* %.4g, 1.01λ* needs only %d workers", s, c, cs2, l, n)
				}
			}
		}
	}
}

// The headroom is the share of more load: +101% at 3/s for 4 workers of 0.5s; over at 7/s.
func TestHeadroom(t *testing.T) {
	e, ok := Model(Input{Window: 30, Adds: 3, Completions: 3, Completed: 90, ServiceMean: 0.5, ServiceSpread: 0, Workers: 4,
		Depth: 0, DepthBefore: 0}, Options{TargetWait: 1, MinEvents: 10, ClosedShare: 0.5})
	if !ok {
		t.Fatal("not modelled")
	}
	if h := e.Headroom(); math.Abs(h-1.01) > 0.01 {
		t.Errorf("headroom %.3f, want +101%%", h)
	}
	e.Offered = 7
	if h := e.Headroom(); h > 0 {
		t.Errorf("at 7/s headroom %.3f, want <= 0", h)
	}
	e.Offered = 0
	if h := e.Headroom(); !math.IsNaN(h) {
		t.Errorf("idle: %v, want NaN", h)
	}
	noWorkers, _ := Model(Input{Window: 30, Adds: 3, Completions: 3, Completed: 90, ServiceMean: 0.5, Workers: math.NaN(),
		Depth: 0, DepthBefore: 0}, Options{TargetWait: 1, MinEvents: 10, ClosedShare: 0.5})
	if !math.IsNaN(noWorkers.MaxOffered) || HeadroomNote(noWorkers, nil) != "" {
		t.Errorf("workers unknown: max %v, note %q", noWorkers.MaxOffered, HeadroomNote(noWorkers, nil))
	}
}
