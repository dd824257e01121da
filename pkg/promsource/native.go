package promsource

import (
	"math"
	"sort"

	dto "github.com/prometheus/client_model/go"
	"google.golang.org/protobuf/proto"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/promapi"
)

// Native histograms (sparse, exponential buckets) reach the model as classic cumulative
// buckets. The cumulative count at a boundary of a native bucket (its lower or upper end) is
// exact: it is the sum of the buckets below it. Between boundaries a native histogram says
// nothing more than a classic one would, so the model's quantiles, interpolated linearly
// inside a bucket the way histogram_quantile does for classic buckets, are within the width of
// the native bucket holding the rank (about 9% of the value at the default factor of 1.1).
// The boundaries are those of both ends of the window together, so that the observations
// between the ends are counted bucket by bucket; a boundary inside a bucket of either end (the
// resolution was reduced between them) is left out, as the count there is not known.

// nativeBounds returns the boundaries at which the cumulative counts of all of hs are exact:
// the ends of their buckets that fall inside no bucket of any of them, in increasing order.
func nativeBounds(hs ...*promapi.Histogram) []float64 {
	var bounds []float64
	for _, h := range hs {
		if h == nil {
			continue
		}
		for _, b := range h.Buckets {
			bounds = append(bounds, b.Lower, b.Upper)
		}
	}
	sort.Float64s(bounds)
	out := bounds[:0]
	for i, x := range bounds {
		if math.IsInf(x, 0) || math.IsNaN(x) || i > 0 && x == bounds[i-1] || inside(x, hs) {
			continue
		}
		out = append(out, x)
	}
	return out
}

// inside reports whether x lies strictly inside a bucket of one of hs.
func inside(x float64, hs []*promapi.Histogram) bool {
	for _, h := range hs {
		if h == nil {
			continue
		}
		for _, b := range h.Buckets {
			if b.Lower < x && x < b.Upper {
				return true
			}
		}
	}
	return false
}

// classicHistogram is h as classic cumulative buckets at bounds, then +Inf with the count of
// all observations. The count at a boundary is that of the buckets that end at or below it (a
// negative bucket's upper end is outside it: an observation equal to it counts one boundary
// higher, a difference the model cannot see).
func classicHistogram(h *promapi.Histogram, bounds []float64) *dto.Histogram {
	out := &dto.Histogram{SampleCountFloat: proto.Float64(h.Count), SampleSum: proto.Float64(h.Sum)}
	for _, ub := range bounds {
		c := 0.0
		for _, b := range h.Buckets {
			if b.Upper <= ub {
				c += b.Count
			}
		}
		out.Bucket = append(out.Bucket, &dto.Bucket{UpperBound: proto.Float64(ub), CumulativeCountFloat: proto.Float64(c)})
	}
	out.Bucket = append(out.Bucket, &dto.Bucket{UpperBound: proto.Float64(math.Inf(+1)), CumulativeCountFloat: proto.Float64(h.Count)})
	return out
}
