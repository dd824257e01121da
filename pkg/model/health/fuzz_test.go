package health

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"
)

// floats decodes b as little-endian float64s.
func floats(b []byte) []float64 {
	out := make([]float64, 0, len(b)/8)
	for ; len(b) >= 8; b = b[8:] {
		out = append(out, math.Float64frombits(binary.LittleEndian.Uint64(b)))
	}
	return out
}

// fuzzHistogram builds a histogram from (upper bound, cumulative count) pairs the way a page's
// buckets are merged.
func fuzzHistogram(b []byte) *Histogram {
	v := floats(b)
	h := &Histogram{}
	for i := 0; i+1 < len(v); i += 2 {
		h.addBucket(v[i], v[i+1])
		h.Count = v[i+1]
	}
	return h
}

// rawHistogram builds a histogram from (upper bound, cumulative count) pairs as they come.
func rawHistogram(b []byte) *Histogram {
	v := floats(b)
	h := &Histogram{}
	for i := 0; i+1 < len(v); i += 2 {
		h.Buckets = append(h.Buckets, Bucket{UpperBound: v[i], Count: v[i+1]})
	}
	return h
}

func finite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

func bytesOf(vs ...float64) []byte {
	b := make([]byte, 0, 8*len(vs))
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

// FuzzQuantile: Quantile never panics, and for finite, non-negative buckets with a +Inf bucket
// and q in [0, 1] it returns NaN or a value between 0 (or the lowest bound, when negative) and
// the highest finite bound.
func FuzzQuantile(f *testing.F) {
	f.Add(bytesOf(0.1, 1, 1, 5, math.Inf(1), 10), 0.99)
	f.Add(bytesOf(1, 10, 2, 4, 3, 10, math.Inf(1), 10), 0.5)
	f.Add(bytesOf(math.NaN(), 1, math.Inf(1), math.NaN()), 0.5)
	f.Add(bytesOf(-1, 5, 1, 10, math.Inf(1), 10), 0.1)
	f.Fuzz(func(t *testing.T, buckets []byte, q float64) {
		h := fuzzHistogram(buckets)
		got := h.Quantile(q)
		if q < 0 || q > 1 || math.IsNaN(q) || math.IsNaN(got) {
			return
		}
		lo, hi, hasInf := 0.0, math.Inf(-1), false
		for _, b := range h.Buckets {
			if math.IsInf(b.UpperBound, 1) {
				hasInf = true
				continue
			}
			if !finite(b.UpperBound, b.Count) || b.Count < 0 {
				return
			}
			lo, hi = math.Min(lo, b.UpperBound), math.Max(hi, b.UpperBound)
		}
		if !hasInf || math.IsInf(hi, -1) {
			return
		}
		if got < lo || got > hi {
			t.Fatalf("Quantile(%v) of %+v = %v, outside [%v, %v]", q, h.Buckets, got, lo, hi)
		}
	})
}

// sameAsMapSince checks d, cur.Since(prev), against the plain reading of Since: every bucket
// of cur less the count of prev's bucket of the same upper bound, found in a map.
func sameAsMapSince(d, cur, prev *Histogram) error {
	before := map[float64]float64{}
	if prev != nil {
		for _, b := range prev.Buckets {
			before[b.UpperBound] = b.Count
		}
	}
	for i, b := range cur.Buckets {
		want := b.Count
		if prev != nil {
			want = Increase(before[b.UpperBound], b.Count)
		}
		got := d.Buckets[i]
		if math.Float64bits(got.UpperBound) != math.Float64bits(b.UpperBound) ||
			math.Float64bits(got.Count) != math.Float64bits(want) && !(math.IsNaN(got.Count) && math.IsNaN(want)) {
			return fmt.Errorf("bucket %d of %+v since %+v: %+v, want {%v %v}", i, cur.Buckets, prev, got, b.UpperBound, want)
		}
	}
	return nil
}

// FuzzSince: Since never panics, keeps every bucket of the newer histogram, and never yields a
// negative increase from non-negative counts (a decrease is a reset).
func FuzzSince(f *testing.F) {
	f.Add(bytesOf(1, 5, math.Inf(1), 10), bytesOf(1, 7, math.Inf(1), 12))
	f.Add(bytesOf(1, 5, math.Inf(1), 10), bytesOf(1, 2, 2, 3, math.Inf(1), 4))
	f.Add([]byte{}, bytesOf(math.NaN(), math.NaN()))
	f.Fuzz(func(t *testing.T, before, after []byte) {
		prev, cur := fuzzHistogram(before), fuzzHistogram(after)
		d := cur.Since(prev)
		if len(d.Buckets) != len(cur.Buckets) {
			t.Fatalf("Since has %d buckets, the newer histogram %d", len(d.Buckets), len(cur.Buckets))
		}
		if err := sameAsMapSince(d, cur, prev); err != nil {
			t.Fatal(err)
		}
		// Buckets in any order, as a histogram not built by add may hold them.
		rawPrev, rawCur := rawHistogram(before), rawHistogram(after)
		if err := sameAsMapSince(rawCur.Since(rawPrev), rawCur, rawPrev); err != nil {
			t.Fatal(err)
		}
		for _, h := range []*Histogram{prev, cur} {
			for _, b := range h.Buckets {
				if !finite(b.Count) || b.Count < 0 {
					return
				}
			}
		}
		for _, b := range d.Buckets {
			if b.Count < 0 {
				t.Fatalf("negative increase %v in bucket %v: %+v since %+v", b.Count, b.UpperBound, cur.Buckets, prev.Buckets)
			}
		}
		_ = d.Quantile(0.99)
	})
}
