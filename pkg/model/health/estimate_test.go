package health

import (
	"math"
	"testing"
)

func withSum(x *Histogram, sum float64) *Histogram {
	x.Sum = sum
	return x
}

func TestEstimate(t *testing.T) {
	// Three reconciles in (10s, 100s] summing to 30.005s: none took more than 10.005s.
	three := withSum(h([]float64{10, 100, inf}, []float64{0, 3, 3}), 30.005)
	tests := []struct {
		name    string
		h       *Histogram
		q       float64
		want    float64
		atLeast bool
	}{
		{"the sum caps p99", three, 0.99, 10.005, false},
		{"the sum caps p50", three, 0.5, 10.0025, false},
		{"a sum that allows it keeps the interpolation", withSum(h([]float64{10, 100, inf}, []float64{0, 3, 3}), 297.3), 0.99, 99.1, false},
		{"the sum is spread over every bucket's lower edge", withSum(h([]float64{1, 2, inf}, []float64{10, 20, 20}), 10*0+10*1+0.1), 0.99, 1.1, false},
		{"a sum below the lower edges bounds nothing", withSum(h([]float64{1, 2, inf}, []float64{0, 10, 10}), 3), 0.5, 1.5, false},
		{"an unknown sum bounds nothing", withSum(h([]float64{1, 2, inf}, []float64{0, 10, 10}), math.NaN()), 0.5, 1.5, false},
		{"never below the bucket's lower edge", withSum(h([]float64{1, 2, inf}, []float64{0, 10, 10}), 10), 0.5, 1, false},
		{"rank in +Inf is a lower bound", withSum(h([]float64{0.01, 0.1, inf}, []float64{0, 1, 100}), 50), 0.99, 0.1, true},
		{"p50 in +Inf is a lower bound", withSum(h([]float64{0.01, 0.1, inf}, []float64{0, 1, 100}), 50), 0.5, 0.1, true},
		{"rank in the top finite bucket is no bound", withSum(h([]float64{0.01, 0.1, inf}, []float64{0, 100, 100}), 10), 0.99, 0.0991, false},
		{"negative lowest bound returned as is", h([]float64{-1, 1, inf}, []float64{5, 10, 10}), 0.1, -1, false},
		{"nil", nil, 0.5, math.NaN(), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.h.Estimate(tt.q)
			if !(same(got.Value, tt.want) || math.Abs(got.Value-tt.want) < 1e-9) || got.AtLeast != tt.atLeast {
				t.Errorf("Estimate(%v) = %+v, want %v (at least: %v)", tt.q, got, tt.want, tt.atLeast)
			}
		})
	}
}

// TestSumBoundHoldsTheQuantile checks the bound against histograms built from observations:
// the true quantile (the observation at rank ⌈q·n⌉) is never above it, nor below a lower bound.
func TestSumBoundHoldsTheQuantile(t *testing.T) {
	bounds := []float64{0.005, 0.01, 0.1, 1, 10, inf}
	sets := [][]float64{ // sorted
		{0.003, 0.004, 0.02, 0.5, 0.5, 0.5, 9},
		{10.001, 10.002, 10.002},
		{0.0051, 0.0051, 0.0051, 0.0051, 0.0099},
		{1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 20},
		{0.001, 0.002, 0.05, 0.05, 0.06, 0.07, 0.09, 0.0999},
	}
	for _, obs := range sets {
		x := &Histogram{Count: float64(len(obs))}
		for _, ub := range bounds {
			n := 0.0
			for _, o := range obs {
				if o <= ub {
					n++
				}
			}
			x.Buckets = append(x.Buckets, Bucket{UpperBound: ub, Count: n})
		}
		for _, o := range obs {
			x.Sum += o
		}
		for _, q := range []float64{0.1, 0.5, 0.9, 0.99, 1} {
			truth := obs[int(math.Ceil(q*x.Count))-1]
			e := x.Estimate(q)
			if e.AtLeast && e.Value > truth {
				t.Errorf("%v q=%v: lower bound %v above the quantile %v", obs, q, e.Value, truth)
			}
			buckets := x.cumulative()
			rank := q * x.Count
			if b := rankBucket(buckets, rank); b < len(buckets)-1 {
				if upper, ok := sumBound(buckets, x.Sum, b, rank); !ok || upper < truth-1e-12 {
					t.Errorf("%v q=%v: bound %v (ok %v) below the quantile %v", obs, q, upper, ok, truth)
				}
			}
		}
	}
}

func TestMean(t *testing.T) {
	if m := withSum(h([]float64{1, inf}, []float64{2, 4}), 6).Mean(); m != 1.5 {
		t.Errorf("Mean = %v, want 1.5", m)
	}
	if m := (&Histogram{}).Mean(); !math.IsNaN(m) {
		t.Errorf("Mean without observations = %v, want NaN", m)
	}
}
