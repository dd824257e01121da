package capacity

import (
	"fmt"
	"math"
	"strings"
)

// MaxLoad is the most arrivals a second c workers of mean service time s (seconds) and spread
// cs2 take while the predicted p99 wait stays at or under target (seconds): λ* = sup{λ :
// P99(λ) <= target}. The predicted p99 rises strictly with λ on [0, c/s), so λ* is found by
// bisection there: at most 50 steps, each one Erlang B recurrence of c steps, or fewer once the
// interval is under 1e-4 of λ*. NaN when it cannot be known (no service time, no workers, more
// than MaxWorkers, a negative target).
func MaxLoad(s float64, c int, cs2, target float64) float64 {
	if !(s > 0) || c < 1 || c > MaxWorkers || !(target >= 0) {
		return math.NaN()
	}
	lo, hi := 0.0, float64(c)/s
	for i := 0; i < 50 && hi-lo >= 1e-4*hi; i++ {
		mid := (lo + hi) / 2
		if MMcWait(mid, s, c, cs2).P99 <= target {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// Headroom is how much more offered load the present workers take before the predicted p99
// wait passes the target, as a share of the load now: MaxOffered/Offered − 1 (1.01 is "+101%").
// It is 0 or less when the load is already over; NaN when unknown or when no load is offered.
func (e Estimate) Headroom() float64 {
	if !(e.Offered > 0) || math.IsNaN(e.MaxOffered) {
		return math.NaN()
	}
	return e.MaxOffered/e.Offered - 1
}

// HeadroomNote says how to read the headroom: an upper bound when the load is a floor, the
// share of more objects in a closed loop, and the limits that may take the room first.
func HeadroomNote(e Estimate, limits []string) string {
	if math.IsNaN(e.MaxOffered) {
		return ""
	}
	var parts []string
	switch h := e.Headroom(); {
	case !(e.Offered > 0):
		parts = append(parts, fmt.Sprintf("idle: the workers take %.3g/s before the p99 wait passes the target", e.MaxOffered))
	case h <= 0:
		parts = append(parts, fmt.Sprintf("already over: the workers take %.3g/s for the target p99 wait, the load is %.3g/s", e.MaxOffered, e.Offered))
	default:
		parts = append(parts, fmt.Sprintf("the workers take %.3g/s before the p99 wait passes the target, %.0f%% more than the %.3g/s offered", e.MaxOffered, 100*h, e.Offered))
	}
	if e.LowerBound {
		parts = append(parts, "the load is a floor, so the headroom is at most this")
	}
	if e.Loop == Closed && e.Offered > 0 {
		parts = append(parts, "in a closed loop the load is objects / period: the same share more objects at the same period")
	}
	if !e.Helps && len(limits) > 0 {
		parts = append(parts, "the model's room may be taken first by: "+strings.Join(limits, "; "))
	}
	return strings.Join(parts, "; ")
}

// spreadOrExponential is the spread as mmcWait reads it: exponential (1) when unknown.
func spreadOrExponential(cs2 float64) float64 {
	if math.IsNaN(cs2) || cs2 < 0 {
		return 1
	}
	return cs2
}
