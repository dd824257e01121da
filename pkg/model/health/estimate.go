package health

import "math"

// Estimate is a quantile read from a histogram, bounded by what its counts and sum prove.
type Estimate struct {
	// Value is the estimate; NaN when the histogram cannot tell.
	Value float64
	// AtLeast says Value is only a lower bound: the quantile's rank lies above the highest
	// finite bucket bound (in the +Inf bucket), so the quantile is that bound or more.
	AtLeast bool
}

// Estimate returns the q-quantile (0 <= q <= 1) of the observations in h: PromQL's
// histogram_quantile interpolation (see Quantile), then clamped to what the buckets and the sum
// allow (see sumBound): a value no observation at that rank can reach is never shown. A rank
// in the +Inf bucket gives the highest finite upper bound with AtLeast set.
func (h *Histogram) Estimate(q float64) Estimate {
	v := h.Quantile(q)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return Estimate{Value: v}
	}
	buckets := h.cumulative()
	rank := q * buckets[len(buckets)-1].Count
	b := rankBucket(buckets, rank)
	if b == len(buckets)-1 {
		return Estimate{Value: v, AtLeast: true}
	}
	if b == 0 && buckets[0].UpperBound <= 0 {
		return Estimate{Value: v} // no lower edge: Quantile returned the upper bound
	}
	lower := 0.0
	if b > 0 {
		lower = buckets[b-1].UpperBound
	}
	if upper, ok := sumBound(buckets, h.Sum, b, rank); ok {
		v = math.Max(lower, math.Min(v, upper))
	}
	return Estimate{Value: v}
}

// Mean is the mean observation, Sum/Count; NaN without observations.
func (h *Histogram) Mean() float64 {
	if h == nil || !(h.Count > 0) {
		return math.NaN()
	}
	return h.Sum / h.Count
}

// sumBound is an upper bound on the quantile of rank rank, which falls in bucket b (finite) of
// the cumulative buckets, from the histogram's sum. ok is false when the sum cannot bound it:
// it is unknown, or below what the buckets already prove (negative observations, or a sum
// that does not match the buckets).
//
// The proof. Observations are not negative (they are durations) and each lies in its bucket
// (l_i, u_i], l_0 = 0, the +Inf bucket's l the highest finite bound. With c_i observations in
// bucket i, the sum is at least S_min = Σ c_i·l_i; the slack sum - S_min is what the
// observations together hold above their lower edges. Sort the n observations
// x_1 <= ... <= x_n and let v = x_k, k = ⌈rank⌉, be the quantile (interpolating definitions
// give a value between x_(k-1) and x_k, so at most x_k). Bucket b holds ranks C_(b-1)+1 ..
// C_b (C the cumulative counts), k among them, so a = C_b - k + 1 observations of bucket b
// (ranks k..C_b) are each >= v, each holding at least v - l_b of the slack:
//
//	sum >= S_min + a·(v - l_b)   so   v <= l_b + (sum - S_min)/a
//
// The bound is tight: put a observations at v, the others of b just above l_b and every other
// observation at its lower edge. Three observations in (10s, 100s] summing to 30.005s have
// slack 0.005s: p99 (k = 3, a = 1) <= 10.005s, p50 (k = 2, a = 2) <= 10.0025s, where the
// interpolation says 99.1s and 55s. With counts that are not whole (float histograms) the
// ranks are weights: the weight C_b - rank of bucket b lies at or above v, a weaker bound.
func sumBound(buckets []Bucket, sum float64, b int, rank float64) (float64, bool) {
	if math.IsNaN(sum) || math.IsInf(sum, 0) {
		return 0, false
	}
	minSum, prev, whole := 0.0, 0.0, true
	for i, bk := range buckets {
		c := bk.Count - prev
		whole = whole && c == math.Trunc(c)
		if c > 0 {
			if i == 0 && bk.UpperBound <= 0 {
				return 0, false // the lowest bucket has no lower edge
			}
			if i > 0 {
				minSum += c * buckets[i-1].UpperBound
			}
		}
		prev = bk.Count
	}
	slack := sum - minSum
	if slack < -1e-9*math.Max(1, math.Abs(minSum)) {
		return 0, false
	}
	slack = math.Max(slack, 0)
	a := buckets[b].Count - rank
	if whole {
		a = buckets[b].Count - math.Max(1, math.Ceil(rank)) + 1
	}
	if !(a > 0) {
		return 0, false
	}
	lower := 0.0
	if b > 0 {
		lower = buckets[b-1].UpperBound
	}
	return lower + slack/a, true
}
