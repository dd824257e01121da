package promsource

import (
	"math"
	"math/rand"
	"sort"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// nativeOf is the native histogram of positive observations obs at schema (bucket i spans
// (2^((i-1)/2^schema), 2^(i/2^schema)]), as a server gives it: populated buckets only.
func nativeOf(obs []float64, schema int) *Histogram {
	width := math.Pow(2, -float64(schema))
	counts := map[int]float64{}
	h := &Histogram{}
	for _, v := range obs {
		i := int(math.Ceil(math.Log2(v) / width))
		for math.Pow(2, float64(i)*width) < v { // rounding: v must be at or below the upper end
			i++
		}
		for math.Pow(2, float64(i-1)*width) >= v {
			i--
		}
		counts[i]++
		h.Count++
		h.Sum += v
	}
	idx := make([]int, 0, len(counts))
	for i := range counts {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for _, i := range idx {
		h.Buckets = append(h.Buckets, HistogramBucket{Rule: 0, Lower: math.Pow(2, float64(i-1)*width), Upper: math.Pow(2, float64(i)*width), Count: counts[i]})
	}
	return h
}

// modelOf is the model's histogram of a converted one.
func modelOf(h *dto.Histogram) *health.Histogram {
	out := &health.Histogram{Count: h.GetSampleCountFloat(), Sum: h.GetSampleSum()}
	for _, b := range h.Bucket {
		out.Buckets = append(out.Buckets, health.Bucket{UpperBound: b.GetUpperBound(), Count: b.GetCumulativeCountFloat()})
	}
	return out
}

// classicOf is the classic histogram of obs with le at bounds and +Inf: what a classic
// histogram with those buckets would have exposed.
func classicOf(obs, bounds []float64) *health.Histogram {
	h := &health.Histogram{}
	for _, ub := range append(append([]float64(nil), bounds...), math.Inf(+1)) {
		n := 0.0
		for _, v := range obs {
			if v <= ub {
				n++
			}
		}
		h.Buckets = append(h.Buckets, health.Bucket{UpperBound: ub, Count: n})
	}
	for _, v := range obs {
		h.Count++
		h.Sum += v
	}
	return h
}

func observations(r *rand.Rand, n int, scale float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = scale * math.Exp(r.NormFloat64())
	}
	return out
}

// TestNativeIsClassicAtItsBoundaries: the window's observations read from native histograms at
// its two ends are, bucket by bucket, those of a classic histogram with le at the native
// boundaries, so the model's count, sum and quantiles are the same; and the quantiles are
// within a native bucket's width of the observations' own.
func TestNativeIsClassicAtItsBoundaries(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	before, during := observations(r, 500, 2), observations(r, 1000, 0.05)
	start, end := nativeOf(before, 3), nativeOf(append(append([]float64(nil), before...), during...), 3)
	bounds := nativeBounds(start, end)
	got := modelOf(classicHistogram(end, bounds)).Since(modelOf(classicHistogram(start, bounds)))
	want := classicOf(during, bounds)
	if got.Count != want.Count || math.Abs(got.Sum-want.Sum) > 1e-9*want.Sum || len(got.Buckets) != len(want.Buckets) {
		t.Fatalf("count %g sum %g buckets %d, want %g %g %d", got.Count, got.Sum, len(got.Buckets), want.Count, want.Sum, len(want.Buckets))
	}
	for i := range want.Buckets {
		if got.Buckets[i] != want.Buckets[i] {
			t.Errorf("bucket %d: %+v, want %+v", i, got.Buckets[i], want.Buckets[i])
		}
	}
	sorted := append([]float64(nil), during...)
	sort.Float64s(sorted)
	for _, q := range []float64{0.5, 0.9, 0.99} {
		g, w := got.Quantile(q), want.Quantile(q)
		if g != w {
			t.Errorf("p%g = %g, the classic histogram's is %g", q*100, g, w)
		}
		// schema 3: a bucket is 2^(1/8) = 9% wider than the one below it.
		if exact := sorted[int(math.Ceil(q*float64(len(sorted))))-1]; math.Abs(g-exact) > 0.0906*exact {
			t.Errorf("p%g = %g, the observations' own is %g: more than a bucket apart", q*100, g, exact)
		}
	}
}

// TestNativeBoundsAcrossAResolutionChange: when the resolution was reduced between the ends
// (schema 3 then 2), only the boundaries of the coarser one are exact at both, and the window's
// observations counted there are exact.
func TestNativeBoundsAcrossAResolutionChange(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	before, during := observations(r, 300, 0.1), observations(r, 300, 0.1)
	start, end := nativeOf(before, 3), nativeOf(append(append([]float64(nil), before...), during...), 2)
	bounds := nativeBounds(start, end)
	if len(bounds) < 5 {
		t.Fatalf("bounds %v: too few", bounds)
	}
	for _, b := range bounds {
		if e := math.Log2(b) * 4; math.Abs(e-math.Round(e)) > 1e-9 {
			t.Errorf("bound %g is not a boundary of schema 2", b)
		}
	}
	got := modelOf(classicHistogram(end, bounds)).Since(modelOf(classicHistogram(start, bounds)))
	want := classicOf(during, bounds)
	for i := range want.Buckets {
		if got.Buckets[i] != want.Buckets[i] {
			t.Errorf("bucket %d: %+v, want %+v", i, got.Buckets[i], want.Buckets[i])
		}
	}
}

// TestNativeZeroAndNegativeBuckets: the zero bucket and negative buckets count at their ends.
func TestNativeZeroAndNegativeBuckets(t *testing.T) {
	h := &Histogram{Count: 7, Sum: 1, Buckets: []HistogramBucket{
		{Rule: 1, Lower: -1, Upper: -0.9, Count: 1}, {Rule: 3, Lower: -0.001, Upper: 0.001, Count: 2}, {Rule: 0, Lower: 0.5, Upper: 0.55, Count: 4},
	}}
	bounds := nativeBounds(h)
	c := classicHistogram(h, bounds)
	want := []struct{ le, n float64 }{{-1, 0}, {-0.9, 1}, {-0.001, 1}, {0.001, 3}, {0.5, 3}, {0.55, 7}, {math.Inf(+1), 7}}
	if len(c.Bucket) != len(want) {
		t.Fatalf("buckets %v, want %v", c.Bucket, want)
	}
	for i, w := range want {
		if c.Bucket[i].GetUpperBound() != w.le || c.Bucket[i].GetCumulativeCountFloat() != w.n {
			t.Errorf("bucket %d: le %g count %g, want %+v", i, c.Bucket[i].GetUpperBound(), c.Bucket[i].GetCumulativeCountFloat(), w)
		}
	}
	// The median lies in the bucket (0.5, 0.55], not between 0 and 0.55.
	if p50 := modelOf(c).Quantile(0.5); !(p50 > 0.5 && p50 <= 0.55) {
		t.Errorf("p50 = %g, want in (0.5, 0.55]", p50)
	}
}

// TestFamiliesPreferClassicBuckets: a series a server holds both ways is read from its classic
// buckets; another, native only, from its native histogram.
func TestFamiliesPreferClassicBuckets(t *testing.T) {
	native := &Histogram{Count: 9, Sum: 9, Buckets: []HistogramBucket{{Lower: 0.5, Upper: 1, Count: 9}}}
	q := map[string]string{"name": "q"}
	le := func(v string) map[string]string { return map[string]string{"name": "q", "le": v} }
	ss := []series{
		{name: "workqueue_work_duration_seconds", labels: q, value: math.NaN(), hist: native, bounds: nativeBounds(native)},
		{name: "workqueue_work_duration_seconds_bucket", labels: le("0.1"), value: 1},
		{name: "workqueue_work_duration_seconds_bucket", labels: le("+Inf"), value: 3},
		{name: "workqueue_work_duration_seconds_sum", labels: q, value: 0.7},
		{name: "workqueue_work_duration_seconds_count", labels: q, value: 3},
		{name: "workqueue_work_duration_seconds", labels: map[string]string{"name": "r"}, value: math.NaN(), hist: native, bounds: nativeBounds(native)},
	}
	f := families(ss, func(string) bool { return true })["workqueue_work_duration_seconds"]
	if f == nil || f.GetType() != dto.MetricType_HISTOGRAM || len(f.Metric) != 2 {
		t.Fatalf("family %v", f)
	}
	for _, m := range f.Metric {
		h := m.GetHistogram()
		switch m.Label[0].GetValue() {
		case "q":
			if h.GetSampleCountFloat() != 3 || len(h.Bucket) != 2 || h.Bucket[0].GetUpperBound() != 0.1 {
				t.Errorf("q: %v, want its classic buckets", h)
			}
		case "r":
			if h.GetSampleCountFloat() != 9 || len(h.Bucket) != 3 || h.Bucket[1].GetUpperBound() != 1 || h.Bucket[1].GetCumulativeCountFloat() != 9 {
				t.Errorf("r: %v, want its native buckets", h)
			}
		}
	}
}

// TestNativeIncreaseAcrossAReset: a native histogram reset inside the window (its process
// restarted) counts what was observed on both sides of the reset, bucket by bucket, as a
// classic histogram's buckets would.
func TestNativeIncreaseAcrossAReset(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	a, b, c, d := observations(r, 200, 3), observations(r, 100, 1), observations(r, 50, 0.01), observations(r, 70, 0.02)
	cat := func(xs ...[]float64) []float64 {
		var out []float64
		for _, x := range xs {
			out = append(out, x...)
		}
		return out
	}
	t0 := time.Unix(1000, 0)
	end := nativeOf(cat(c, d), 3)
	points := []Point{
		{T: t0.Add(-30 * time.Second), H: nativeOf(a[:100], 3)},
		{T: t0.Add(-10 * time.Second), H: nativeOf(a, 3)}, // the last at or before the start
		{T: t0.Add(10 * time.Second), H: nativeOf(cat(a, b), 3)},
		{T: t0.Add(20 * time.Second), H: nativeOf(c, 3)}, // restarted
		{T: t0.Add(30 * time.Second), H: end},
	}
	ns, ok := nativeIncrease(points, t0, end)
	if !ok {
		t.Fatal("no increase")
	}
	got := modelOf(classicHistogram(end, ns.bounds)).Since(modelOf(classicHistogram(ns.hist, ns.bounds)))
	want := classicOf(cat(b, c, d), ns.bounds)
	if got.Count != want.Count || math.Abs(got.Sum-want.Sum) > 1e-9*want.Sum {
		t.Errorf("count %g sum %g, want %g %g", got.Count, got.Sum, want.Count, want.Sum)
	}
	for i := range want.Buckets {
		if math.Abs(got.Buckets[i].Count-want.Buckets[i].Count) > 1e-9 || got.Buckets[i].UpperBound != want.Buckets[i].UpperBound {
			t.Errorf("bucket %d: %+v, want %+v", i, got.Buckets[i], want.Buckets[i])
		}
	}
	if _, ok := nativeIncrease(points[2:], t0, end); ok {
		t.Error("a series first sampled after the start has an increase")
	}
}
