package health

import (
	"math"
	"testing"
)

var inf = math.Inf(+1)

func h(bounds []float64, counts []float64) *Histogram {
	x := &Histogram{}
	for i := range bounds {
		x.Buckets = append(x.Buckets, Bucket{UpperBound: bounds[i], Count: counts[i]})
	}
	if len(counts) > 0 {
		x.Count = counts[len(counts)-1]
	}
	return x
}

func TestQuantile(t *testing.T) {
	tests := []struct {
		name string
		h    *Histogram
		q    float64
		want float64
	}{
		{"nil", nil, 0.99, math.NaN()},
		{"no observations", h([]float64{0.1, 1, inf}, []float64{0, 0, 0}), 0.99, math.NaN()},
		{"no +Inf bucket", h([]float64{0.1, 1}, []float64{1, 2}), 0.5, math.NaN()},
		{"+Inf only", h([]float64{inf}, []float64{5}), 0.5, math.NaN()},
		{"lowest bucket starts at 0", h([]float64{1, 2, inf}, []float64{10, 10, 10}), 0.5, 0.5},
		{"interpolates inside a bucket", h([]float64{1, 2, inf}, []float64{0, 10, 10}), 0.5, 1.5},
		{"rank in +Inf bucket gives highest finite bound", h([]float64{1, 2, inf}, []float64{1, 2, 10}), 0.99, 2},
		{"negative lowest bound returned as is", h([]float64{-1, 1, inf}, []float64{5, 10, 10}), 0.1, -1},
		{"non-monotonic buckets are fixed", h([]float64{1, 2, 3, inf}, []float64{5, 4, 10, 10}), 0.5, 1},
		{"empty buckets skipped", h([]float64{0.001, 0.01, 0.1, inf}, []float64{0, 0, 4, 4}), 0.5, 0.055},
		{"q above 1", h([]float64{1, inf}, []float64{1, 1}), 1.5, inf},
		{"q below 0", h([]float64{1, inf}, []float64{1, 1}), -1, math.Inf(-1)},
		{"NaN count", h([]float64{1, inf}, []float64{math.NaN(), math.NaN()}), 0.5, math.NaN()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.h.Quantile(tt.q)
			if !same(got, tt.want) {
				t.Errorf("Quantile(%v) = %v, want %v", tt.q, got, tt.want)
			}
		})
	}
}

func TestSince(t *testing.T) {
	prev := h([]float64{1, 2, inf}, []float64{5, 8, 10})
	tests := []struct {
		name string
		prev *Histogram
		cur  *Histogram
		want []float64
	}{
		{"growth", prev, h([]float64{1, 2, inf}, []float64{5, 18, 20}), []float64{0, 10, 10}},
		{"reset: current counts are the increase", prev, h([]float64{1, 2, inf}, []float64{1, 1, 2}), []float64{1, 1, 2}},
		{"new histogram", nil, h([]float64{1, inf}, []float64{1, 3}), []float64{1, 3}},
		{"new bucket", h([]float64{inf}, []float64{2}), h([]float64{1, inf}, []float64{1, 3}), []float64{1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := tt.cur.Since(tt.prev)
			if len(d.Buckets) != len(tt.want) {
				t.Fatalf("got %d buckets, want %d", len(d.Buckets), len(tt.want))
			}
			for i, w := range tt.want {
				if d.Buckets[i].Count != w {
					t.Errorf("bucket %v = %v, want %v", d.Buckets[i].UpperBound, d.Buckets[i].Count, w)
				}
			}
		})
	}
	if (*Histogram)(nil).Since(prev) != nil {
		t.Error("nil histogram since prev should be nil")
	}
}

func TestIncrease(t *testing.T) {
	for _, tt := range []struct{ prev, cur, want float64 }{
		{1, 5, 4}, {5, 2, 2}, {math.NaN(), 3, 3}, {3, math.NaN(), math.NaN()}, {0, 0, 0},
	} {
		if got := Increase(tt.prev, tt.cur); !same(got, tt.want) {
			t.Errorf("Increase(%v, %v) = %v, want %v", tt.prev, tt.cur, got, tt.want)
		}
	}
}

func same(a, b float64) bool {
	return (math.IsNaN(a) && math.IsNaN(b)) || math.Abs(a-b) < 1e-9 || a == b
}

// Above brackets the observations over a bound with the buckets around it; at a bound, exact.
func TestAbove(t *testing.T) {
	h := &Histogram{Buckets: []Bucket{{0.1, 50}, {1, 90}, {10, 97}, {math.Inf(1), 100}}, Count: 100}
	for _, c := range []struct {
		bound            float64
		surely, possibly float64
	}{
		{1, 10, 10},
		{2, 3, 10},
		{0.05, 50, 100},
		{100, 0, 3},
	} {
		s, p := h.Above(c.bound)
		if s != c.surely || p != c.possibly {
			t.Errorf("Above(%v) = %v, %v; want %v, %v", c.bound, s, p, c.surely, c.possibly)
		}
	}
	if s, p := (*Histogram)(nil).Above(1); !math.IsNaN(s) || !math.IsNaN(p) {
		t.Errorf("nil: %v %v", s, p)
	}
	if s, _ := (&Histogram{Buckets: []Bucket{{1, 5}}}).Above(1); !math.IsNaN(s) {
		t.Errorf("no +Inf bucket: %v", s)
	}
}
