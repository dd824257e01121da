package promsource

import (
	"testing"
	"time"
)

// wide is a native histogram of n adjacent buckets of one observation each, from lo, each
// width wide.
func wide(n int, lo, width float64) *Histogram {
	h := &Histogram{}
	for i := 0; i < n; i++ {
		l := lo + float64(i)*width
		h.Buckets = append(h.Buckets, HistogramBucket{Lower: l, Upper: l + width, Count: 1})
		h.Count++
	}
	return h
}

// The boundaries and cumulative counts of native histograms as large as the client accepts
// are computed in about linear time: two ends of a window, a reset between them, at the
// bucket cap.
func TestNativeConversionScalesWithTheBuckets(t *testing.T) {
	n := MaxNativeBuckets
	start, end := wide(n, 1, 1), wide(n, 1.5, 1) // every boundary of one inside a bucket of the other
	end2 := wide(n, 1, 0.5)
	t0 := time.Now()
	bounds := nativeBounds(start, end)
	h := classicHistogram(end, bounds)
	points := []Point{{T: time.Unix(0, 0), H: start}, {T: time.Unix(10, 0), H: end2}}
	ns, ok := nativeIncrease(points, time.Unix(5, 0), end2)
	if took := time.Since(t0); took > time.Second {
		t.Errorf("%d buckets took %s, want well under a second", n, took)
	}
	if len(bounds) != 2 || len(h.Bucket) != 3 || !ok || len(ns.bounds) == 0 {
		t.Errorf("bounds %v, %d classic buckets, increase ok %v with %d bounds", bounds, len(h.Bucket), ok, len(ns.bounds))
	}
}
