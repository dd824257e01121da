package promsource

import (
	"math"
	"sort"
	"time"

	dto "github.com/prometheus/client_model/go"
	"google.golang.org/protobuf/proto"
)

// Native histograms (sparse, exponential buckets) reach the model as classic cumulative
// buckets. The cumulative count at a boundary of a native bucket (its lower or upper end) is
// exact: it is the sum of the buckets below it. Between boundaries a native histogram says
// nothing more than a classic one would, so the model's quantiles, interpolated linearly
// inside a bucket the way histogram_quantile does for classic buckets, are within the width of
// the native bucket holding the rank (about 9% of the value at the default factor of 1.1).
// The boundaries are those of both ends of the window together, so that the observations
// between the ends are counted bucket by bucket; a boundary inside a bucket of either end (the
// resolution was reduced between them) is left out, as the count there is not known. A
// histogram reset within the window is read from its raw samples, like a counter: its start
// sample is rebuilt so that the growth to the end is what was observed on both sides of the
// reset (nativeIncrease).

// nativeBounds returns the boundaries at which the cumulative counts of all of hs are exact:
// the ends of their buckets that fall inside no bucket of any of them, in increasing order.
// It takes n log n time in the number of buckets: the ends and the buckets are sorted, and
// one sweep carries the highest upper end of the buckets that start below each end.
func nativeBounds(hs ...*Histogram) []float64 {
	var bounds []float64
	var spans []HistogramBucket
	for _, h := range hs {
		if h == nil {
			continue
		}
		for _, b := range h.Buckets {
			bounds = append(bounds, b.Lower, b.Upper)
		}
		spans = append(spans, h.Buckets...)
	}
	sort.Float64s(bounds)
	sort.Slice(spans, func(i, j int) bool { return spans[i].Lower < spans[j].Lower })
	out := bounds[:0]
	next, reach := 0, math.Inf(-1)
	for i, x := range bounds {
		if math.IsInf(x, 0) || math.IsNaN(x) || i > 0 && x == bounds[i-1] {
			continue
		}
		for ; next < len(spans) && spans[next].Lower < x; next++ {
			reach = math.Max(reach, spans[next].Upper)
		}
		if reach > x { // inside a bucket that starts below it and ends above it
			continue
		}
		out = append(out, x)
	}
	return out
}

// classicHistogram is h as classic cumulative buckets at bounds, then +Inf with the count of
// all observations. The count at a boundary is that of the buckets that end at or below it (a
// negative bucket's upper end is outside it: an observation equal to it counts one boundary
// higher, a difference the model cannot see).
func classicHistogram(h *Histogram, bounds []float64) *dto.Histogram {
	out := &dto.Histogram{SampleCountFloat: proto.Float64(h.Count), SampleSum: proto.Float64(h.Sum)}
	for j, c := range cumulative(h, bounds) {
		out.Bucket = append(out.Bucket, &dto.Bucket{UpperBound: proto.Float64(bounds[j]), CumulativeCountFloat: proto.Float64(c)})
	}
	out.Bucket = append(out.Bucket, &dto.Bucket{UpperBound: proto.Float64(math.Inf(+1)), CumulativeCountFloat: proto.Float64(h.Count)})
	return out
}

// nativeStart is the sample a native histogram reset within the window is given at the
// window's start, and the boundaries both its samples are read at.
type nativeStart struct {
	hist   *Histogram
	bounds []float64
}

// nativeIncrease is increase for a native histogram: its growth from its last sample at or
// before start to end, at the boundaries exact in all those samples, a drop (of its count or
// of any boundary's cumulative count) counting as a reset, the histogram after it being what
// grew since. It returns the start sample that makes end minus it that growth (its counts may
// be below zero). ok is false when the series has no histogram at or before start.
func nativeIncrease(points []Point, start time.Time, end *Histogram) (nativeStart, bool) {
	var hs []*Histogram
	found := false
	for _, p := range points {
		if p.H == nil {
			continue
		}
		if !p.T.After(start) {
			hs, found = hs[:0], true
		}
		hs = append(hs, p.H)
	}
	if !found {
		return nativeStart{}, false
	}
	hs = append(hs, end)
	bounds := nativeBounds(hs...)
	incCount, incSum := 0.0, 0.0
	inc := make([]float64, len(bounds))
	prev := cumulative(hs[0], bounds)
	for i := 1; i < len(hs); i++ {
		cur := cumulative(hs[i], bounds)
		reset := hs[i].Count < hs[i-1].Count
		for j := range cur {
			reset = reset || cur[j] < prev[j]
		}
		for j := range cur {
			if reset {
				inc[j] += cur[j]
			} else {
				inc[j] += cur[j] - prev[j]
			}
		}
		if reset {
			incCount, incSum = incCount+hs[i].Count, incSum+hs[i].Sum
		} else {
			incCount, incSum = incCount+hs[i].Count-hs[i-1].Count, incSum+hs[i].Sum-hs[i-1].Sum
		}
		prev = cur
	}
	endCum := cumulative(end, bounds)
	first := &Histogram{Count: end.Count - incCount, Sum: end.Sum - incSum}
	below := 0.0
	for j, ub := range bounds {
		c := endCum[j] - inc[j]
		first.Buckets = append(first.Buckets, HistogramBucket{Lower: ub, Upper: ub, Count: c - below})
		below = c
	}
	return nativeStart{hist: first, bounds: bounds}, true
}

// cumulative is h's cumulative count at each of bounds: the count of the buckets whose upper
// end is at or below it. It takes n log n time in the number of buckets and bounds.
func cumulative(h *Histogram, bounds []float64) []float64 {
	ends := make([]HistogramBucket, len(h.Buckets))
	copy(ends, h.Buckets)
	sort.Slice(ends, func(i, j int) bool { return ends[i].Upper < ends[j].Upper })
	below := make([]float64, len(ends)+1) // below[k]: the count of the k lowest-ending buckets
	for k, b := range ends {
		below[k+1] = below[k] + b.Count
	}
	out := make([]float64, len(bounds))
	for j, ub := range bounds {
		out[j] = below[sort.Search(len(ends), func(k int) bool { return ends[k].Upper > ub })]
	}
	return out
}
