package capacity

import "math"

// Bucket is a cumulative histogram bucket: Count observations at or below UpperBound.
type Bucket struct {
	UpperBound, Count float64
}

// SpreadOf estimates the squared coefficient of variation (variance / mean²) of the
// observations of a cumulative histogram, buckets sorted by upper bound. Each observation is
// taken at its bucket's geometric midpoint (half the upper bound for the first bucket, the
// highest finite bound for +Inf): the spread between buckets is seen, the spread inside one is
// not, so with the workqueue's buckets (factors of 10) it is a lower bound, and all
// observations in one bucket give 0. NaN without observations.
func SpreadOf(buckets []Bucket) float64 {
	var n, sum, sq, prevBound, prevCount float64
	for i, b := range buckets {
		count := b.Count - prevCount
		ub := b.UpperBound
		var x float64
		switch {
		case math.IsInf(ub, 1):
			x = prevBound
		case i == 0 || prevBound <= 0:
			x = ub / 2
		default:
			x = math.Sqrt(prevBound * ub)
		}
		if count > 0 {
			n += count
			sum += count * x
			sq += count * x * x
		}
		if !math.IsInf(ub, 1) {
			prevBound = ub
		}
		prevCount = math.Max(prevCount, b.Count)
	}
	if n == 0 || sum <= 0 {
		return math.NaN()
	}
	mean := sum / n
	return math.Max(0, sq/n/(mean*mean)-1)
}
