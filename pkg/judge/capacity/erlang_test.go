package capacity

import (
	"math"
	"testing"
)

// erlangCDirect is the textbook formula, with factorials, for small c.
func erlangCDirect(c int, a float64) float64 {
	term, sum := 1.0, 0.0
	for k := 0; k < c; k++ {
		sum += term
		term *= a / float64(k+1)
	}
	top := term * float64(c) / (float64(c) - a) // a^c/c! · c/(c-a)
	return top / (sum + top)
}

func TestErlangC(t *testing.T) {
	for _, tc := range []struct {
		c    int
		a    float64
		want float64
	}{
		{1, 0.5, 0.5},      // M/M/1: the probability of waiting is ρ
		{1, 0.9, 0.9},      // same
		{2, 1, 1.0 / 3},    // M/M/2 at ρ = 0.5
		{10, 8, 0.40918},   // call-centre tables: 10 agents, 8 Erlangs
		{5, 6, 1},          // overloaded
		{100, 90, 0.21694}, // large c (exact rational arithmetic), where float factorials overflow
	} {
		got := ErlangC(tc.c, tc.a)
		if math.Abs(got-tc.want) > 5e-4 {
			t.Errorf("ErlangC(%d, %g) = %.5f, want %.5f", tc.c, tc.a, got, tc.want)
		}
		if tc.c <= 20 && tc.a < float64(tc.c) {
			if d := erlangCDirect(tc.c, tc.a); math.Abs(got-d) > 1e-9 {
				t.Errorf("ErlangC(%d, %g) = %.9f, the direct formula says %.9f", tc.c, tc.a, got, d)
			}
		}
	}
	if !math.IsNaN(ErlangC(0, 1)) {
		t.Error("ErlangC with no server must be NaN")
	}
}

func TestMMcWait(t *testing.T) {
	for _, tc := range []struct {
		name              string
		lambda, s         float64
		c                 int
		cs2               float64
		wantMean, wantP99 float64
	}{
		// M/M/1: Wq = ρ/(μ-λ), P(W>t) = ρ e^{-(μ-λ)t}.
		{"M/M/1 at ρ=0.5", 0.5, 1, 1, 1, 1, 2 * math.Log(50)},
		{"M/M/1 at ρ=0.9", 9, 0.1, 1, 1, 0.9 / 1, math.Log(90) / 1},
		// M/M/2, λ=1, μ=1: C=1/3, Wq = C/(cμ-λ) = 1/3.
		{"M/M/2", 1, 1, 2, 1, 1.0 / 3, math.Log(100.0/3) / 1},
		// constant service times halve the wait (Allen-Cunneen).
		{"M/D/1 approximation", 0.5, 1, 1, 0, 0.5, math.Log(50)},
		// hardly any wait: the p99 is 0 when fewer than 1% wait.
		{"idle", 0.001, 1, 4, 1, ErlangC(4, 0.001) / (4 - 0.001), 0},
	} {
		w := MMcWait(tc.lambda, tc.s, tc.c, tc.cs2)
		if math.Abs(w.Mean-tc.wantMean) > 1e-9 || math.Abs(w.P99-tc.wantP99) > 1e-9 {
			t.Errorf("%s: wait = %+v, want mean %g p99 %g", tc.name, w, tc.wantMean, tc.wantP99)
		}
	}
	if w := MMcWait(3, 1, 2, 1); !math.IsInf(w.Mean, 1) || !math.IsInf(w.P99, 1) {
		t.Errorf("overloaded: wait = %+v, want +Inf", w)
	}
}

func TestWorkersFor(t *testing.T) {
	for _, tc := range []struct {
		name                   string
		lambda, s, cs2, target float64
	}{
		{"10/s of 1s reconciles", 10, 1, 0, 1},
		{"10/s of 1s, exponential", 10, 1, 1, 1},
		{"fast items", 50, 0.01, 1, 1},
		{"tight target", 5, 0.5, 1, 0.01},
	} {
		c := WorkersFor(tc.lambda, tc.s, tc.cs2, tc.target)
		if c < 1 || c > maxWorkers {
			t.Fatalf("%s: %d workers", tc.name, c)
		}
		if w := MMcWait(tc.lambda, tc.s, c, tc.cs2); w.P99 > tc.target {
			t.Errorf("%s: %d workers give p99 %g > %g", tc.name, c, w.P99, tc.target)
		}
		if c > 1 {
			if w := MMcWait(tc.lambda, tc.s, c-1, tc.cs2); w.P99 <= tc.target {
				t.Errorf("%s: %d workers, but %d already give p99 %g <= %g", tc.name, c, c-1, w.P99, tc.target)
			}
		}
		if float64(c) <= tc.lambda*tc.s {
			t.Errorf("%s: %d workers cannot serve %g Erlangs", tc.name, c, tc.lambda*tc.s)
		}
	}
	if c := WorkersFor(0, 1, 1, 1); c != 1 {
		t.Errorf("no load: %d workers, want 1", c)
	}
	if c := WorkersFor(1, math.NaN(), 1, 1); c != 0 {
		t.Errorf("unknown service time: %d workers, want 0 (unknown)", c)
	}
}

func TestSpreadOf(t *testing.T) {
	inf := math.Inf(1)
	for _, tc := range []struct {
		name    string
		buckets []Bucket
		want    float64
	}{
		{"one bucket: no spread seen", []Bucket{{0.1, 0}, {1, 0}, {10, 50}, {inf, 50}}, 0},
		// two equal halves at sqrt(0.1·1)=0.316 and sqrt(1·10)=3.16: cs² = (x²+y²)/2 / ((x+y)/2)² - 1
		{"two buckets", []Bucket{{0.1, 0}, {1, 50}, {10, 100}, {inf, 100}}, (0.1 + 10) / 2 / math.Pow((math.Sqrt(0.1)+math.Sqrt(10))/2, 2)},
		{"empty", []Bucket{{1, 0}, {inf, 0}}, math.NaN()},
	} {
		got := SpreadOf(tc.buckets)
		if tc.name == "two buckets" {
			tc.want--
		}
		if !(math.Abs(got-tc.want) < 1e-9 || math.IsNaN(got) && math.IsNaN(tc.want)) {
			t.Errorf("%s: SpreadOf = %g, want %g", tc.name, got, tc.want)
		}
	}
}
