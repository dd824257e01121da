package capacity

import (
	"math"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// MaxWorkers is the most workers a queue is modelled with: as many as a queue is believed
// to run at all (health.MaxWorkers). A larger count is a broken metrics page or a typo, not a
// deployment: the model says so rather than computing with it.
const MaxWorkers = health.MaxWorkers

// ErlangC is the probability that an arrival waits in an M/M/c queue with c servers and an
// offered load of a Erlangs (λ/μ). It is 1 when a >= c (the queue grows without bound) and
// NaN for c < 1, c > MaxWorkers or a < 0. It is computed through the Erlang B recurrence,
// B(k) = a·B(k-1) / (k + a·B(k-1)), in c steps: every term stays between 0 and 1, so it is
// exact for thousands of servers where factorials and powers overflow.
func ErlangC(c int, a float64) float64 {
	if c < 1 || c > MaxWorkers || a < 0 || math.IsNaN(a) {
		return math.NaN()
	}
	if a >= float64(c) {
		return 1
	}
	return erlangCOfB(c, a, erlangB(c, a))
}

// erlangB is the Erlang B blocking probability of c servers at a Erlangs, by the recurrence.
func erlangB(c int, a float64) float64 {
	b := 1.0 // Erlang B with 0 servers
	for k := 1; k <= c; k++ {
		b = a * b / (float64(k) + a*b)
	}
	return b
}

// erlangCOfB is Erlang C from Erlang B with the same c and a (a < c).
func erlangCOfB(c int, a, b float64) float64 {
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
// P(W > t) = C(c,a)·e^{-(cμ-λ)t}, scaled by the same factor. It is NaN for more than
// MaxWorkers workers.
func MMcWait(lambda, s float64, c int, cs2 float64) Wait {
	if !(lambda >= 0) || !(s > 0) || c < 1 || c > MaxWorkers {
		return Wait{Mean: math.NaN(), P99: math.NaN()}
	}
	return mmcWait(lambda, s, c, cs2, ErlangC(c, lambda*s))
}

// mmcWait is MMcWait given the probability of waiting pw, ErlangC(c, λs).
func mmcWait(lambda, s float64, c int, cs2, pw float64) Wait {
	if lambda*s >= float64(c) {
		return Wait{Mean: math.Inf(1), P99: math.Inf(1)}
	}
	if math.IsNaN(cs2) || cs2 < 0 {
		cs2 = 1
	}
	k := (1 + cs2) / 2
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
// cannot be known (no service time) and maxWorkers+1 when even maxWorkers are not enough. It
// takes one step of the Erlang B recurrence a worker: at most maxWorkers steps in all.
func WorkersFor(lambda, s, cs2, target float64) int {
	if !(lambda >= 0) || !(s > 0) || !(target >= 0) {
		return 0
	}
	if lambda == 0 {
		return 1
	}
	a := lambda * s
	if !(a < maxWorkers) {
		return maxWorkers + 1
	}
	b := 1.0 // Erlang B with c workers, carried from one c to the next
	for c := 1; c <= maxWorkers; c++ {
		b = a * b / (float64(c) + a*b)
		if a >= float64(c) {
			continue
		}
		if w := mmcWait(lambda, s, c, cs2, erlangCOfB(c, a, b)); w.P99 <= target {
			return c
		}
	}
	return maxWorkers + 1
}
