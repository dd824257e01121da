package objects

import (
	"math"
	"sort"
)

// latencies are the times a watch measured for the changes it followed: counted in buckets,
// and the first maxSamples kept exactly for the quantiles. The spec latency and the time to
// Ready are both summed up through it, so that their buckets, quantiles and capping mean the
// same (the report shows their quantiles side by side).
type latencies struct {
	bounds bounds
	// counts are by bucket, not cumulative, the last for above all bounds.
	counts  []int
	n       int
	samples []float64
	// capped says there were more than maxSamples: the quantiles are of the first ones.
	capped bool
}

// maxSamples bounds the latencies kept for the exact quantiles.
const maxSamples = 10000

func newLatencies(b bounds) latencies {
	return latencies{bounds: b, counts: make([]int, len(b)+1)}
}

// add counts one latency of v seconds.
func (l *latencies) add(v float64) {
	l.n++
	l.counts[l.bounds.index(v)]++
	if len(l.samples) < maxSamples {
		l.samples = append(l.samples, v)
	} else {
		l.capped = true
	}
}

// summary is the exact median, 99th percentile and maximum (nil when there are no samples),
// and the cumulative buckets (nil when nothing was counted).
func (l *latencies) summary() (p50, p99, maximum *float64, buckets []Bucket) {
	buckets = l.bounds.cumulative(l.counts)
	if len(l.samples) == 0 {
		return nil, nil, nil, buckets
	}
	xs := append([]float64(nil), l.samples...)
	sort.Float64s(xs)
	return ptr(rank(xs, 0.5)), ptr(rank(xs, 0.99)), ptr(xs[len(xs)-1]), buckets
}

// rank is the q-quantile of sorted xs by nearest rank.
func rank(xs []float64, q float64) float64 {
	i := int(math.Ceil(q*float64(len(xs)))) - 1
	return xs[max(0, min(i, len(xs)-1))]
}

func ptr(v float64) *float64 { return &v }
