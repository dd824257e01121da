package promsource

import (
	"math"
	"sort"
	"testing"
	"time"
)

// fuzzHistograms reads up to three native histograms from b, three bytes a bucket (lower end,
// width, count; a width of 255 is an upper end at +Inf), a zero byte closing a histogram.
func fuzzHistograms(b []byte) []*Histogram {
	hs := []*Histogram{{}}
	for len(b) > 0 && len(hs) <= 3 {
		if b[0] == 0 {
			hs = append(hs, &Histogram{})
			b = b[1:]
			continue
		}
		if len(b) < 3 {
			break
		}
		lo := float64(int8(b[0])) / 4
		up := lo + float64(b[1])/8
		if b[1] == 255 {
			up = math.Inf(1)
		}
		h := hs[len(hs)-1]
		h.Buckets = append(h.Buckets, HistogramBucket{Lower: lo, Upper: up, Count: float64(b[2])})
		h.Count += float64(b[2])
		b = b[3:]
	}
	return hs
}

// slowBounds and slowCumulative are the definitions, bucket against bucket.
func slowBounds(hs []*Histogram) []float64 {
	seen := map[float64]bool{}
	var out []float64
	for _, h := range hs {
		for _, b := range h.Buckets {
			for _, x := range []float64{b.Lower, b.Upper} {
				inside := false
				for _, g := range hs {
					for _, c := range g.Buckets {
						inside = inside || c.Lower < x && x < c.Upper
					}
				}
				if !inside && !seen[x] && !math.IsInf(x, 0) {
					seen[x] = true
					out = append(out, x)
				}
			}
		}
	}
	sort.Float64s(out)
	return out
}

func slowCumulative(h *Histogram, bounds []float64) []float64 {
	out := make([]float64, len(bounds))
	for j, ub := range bounds {
		for _, b := range h.Buckets {
			if b.Upper <= ub {
				out[j] += b.Count
			}
		}
	}
	return out
}

// FuzzNativeConversion converts any native histograms the client accepts into classic
// buckets, and checks the result against the definitions: the boundaries exact in all of
// them, the cumulative counts there, and the start sample a reset leaves.
func FuzzNativeConversion(f *testing.F) {
	f.Add([]byte{4, 8, 1, 12, 8, 2, 0, 6, 8, 1, 14, 8, 5})
	f.Add([]byte{4, 255, 3, 0, 4, 8, 1})
	f.Add([]byte{0, 0, 0})
	f.Add([]byte{200, 16, 7, 4, 0, 1, 4, 8, 2, 0, 4, 8, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		hs := fuzzHistograms(b)
		bounds := nativeBounds(hs...)
		want := slowBounds(hs)
		if len(bounds) != len(want) {
			t.Fatalf("bounds %v, want %v", bounds, want)
		}
		for i := range bounds {
			if bounds[i] != want[i] {
				t.Fatalf("bounds %v, want %v", bounds, want)
			}
		}
		for _, h := range hs {
			got, want := cumulative(h, bounds), slowCumulative(h, bounds)
			for j := range got {
				if got[j] != want[j] {
					t.Fatalf("cumulative %v, want %v", got, want)
				}
			}
			c := classicHistogram(h, bounds)
			if n := len(c.Bucket); n != len(bounds)+1 || !math.IsInf(c.Bucket[n-1].GetUpperBound(), 1) {
				t.Fatalf("classic buckets %v for bounds %v", c.Bucket, bounds)
			}
		}
		var points []Point
		for i, h := range hs {
			points = append(points, Point{T: time.Unix(int64(10*i), 0), V: math.NaN(), H: h})
		}
		end := hs[len(hs)-1]
		if ns, ok := nativeIncrease(points, time.Unix(0, 0), end); ok {
			if len(ns.hist.Buckets) != len(ns.bounds) {
				t.Fatalf("start sample of %d buckets at %d bounds", len(ns.hist.Buckets), len(ns.bounds))
			}
			classicHistogram(ns.hist, ns.bounds)
		}
	})
}
