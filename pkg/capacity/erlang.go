package capacity

import "math"

// ErlangC is the probability that an arrival waits in an M/M/c queue with c servers and an
// offered load of a Erlangs (λ/μ). It is 1 when a >= c (the queue grows without bound) and
// NaN for c < 1 or a < 0. It is computed through the Erlang B recursion, which stays exact
// for hundreds of servers where factorials overflow.
func ErlangC(c int, a float64) float64 {
	if c < 1 || a < 0 || math.IsNaN(a) {
		return math.NaN()
	}
	if a >= float64(c) {
		return 1
	}
	b := 1.0 // Erlang B with 0 servers
	for k := 1; k <= c; k++ {
		b = a * b / (float64(k) + a*b)
	}
	return float64(c) * b / (float64(c) - a*(1-b))
}

// Wait is the queue wait (before a worker takes the item) a model predicts.
type Wait struct {
	// Mean and P99 are in seconds; +Inf when the workers cannot keep up (ρ >= 1).
	Mean, P99 float64
}

// MMcWait is the M/M/c queue wait for λ arrivals a second, a mean service time s (seconds)
// and c workers, scaled by the Allen-Cunneen factor (ca²+cs²)/2 with Poisson arrivals
// (ca² = 1): (1+cs2)/2, where cs2 is the squared coefficient of variation of the service
// times (1 for exponential ones, which leaves M/M/c unchanged; 0 for constant ones, which
// halves the wait as M/D/c roughly does). The p99 uses the exponential tail of M/M/c,
// P(W > t) = C(c,a)·e^{-(cμ-λ)t}, scaled by the same factor.
func MMcWait(lambda, s float64, c int, cs2 float64) Wait {
	inf := Wait{Mean: math.Inf(1), P99: math.Inf(1)}
	if !(lambda >= 0) || !(s > 0) || c < 1 {
		return Wait{Mean: math.NaN(), P99: math.NaN()}
	}
	a := lambda * s
	if a >= float64(c) {
		return inf
	}
	if math.IsNaN(cs2) || cs2 < 0 {
		cs2 = 1
	}
	k := (1 + cs2) / 2
	pw := ErlangC(c, a)
	drain := float64(c)/s - lambda // cμ - λ
	w := Wait{Mean: k * pw / drain}
	if pw > 0.01 {
		w.P99 = k * math.Log(pw/0.01) / drain
	}
	return w
}

// maxWorkers bounds the search for the workers needed: past it the answer is "more than that".
const maxWorkers = 1000

// WorkersFor is the smallest number of workers whose predicted p99 wait is at or under
// target (seconds), for λ arrivals a second of mean service time s and spread cs2; 0 when it
// cannot be known (no service time) and maxWorkers+1 when even maxWorkers are not enough.
func WorkersFor(lambda, s, cs2, target float64) int {
	if !(lambda >= 0) || !(s > 0) || !(target >= 0) {
		return 0
	}
	if lambda == 0 {
		return 1
	}
	for c := max(1, int(math.Floor(lambda*s))); c <= maxWorkers; c++ {
		if w := MMcWait(lambda, s, c, cs2); w.P99 <= target {
			return c
		}
	}
	return maxWorkers + 1
}
