package render

import (
	"math"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

func TestHistogramMarksInterpolateInsideTheirBucket(t *testing.T) {
	bounds := []float64{0.001, 0.01, 0.1, math.Inf(1)}
	for _, tc := range []struct {
		v    float64
		want float64
	}{{0.0005, 0.5}, {0.001, 1}, {0.055, 2.5}, {5, 3}} {
		if got, ok := position(bounds, tc.v, 0, 3); !ok || math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("position(%v) = %v %v, want %v", tc.v, got, ok, tc.want)
		}
	}
	if _, ok := position(bounds, 0.5, 0, 2); ok {
		t.Error("a value beyond the last bucket shown has no position")
	}
}

func TestChartsOfNothingSayWhy(t *testing.T) {
	zero := 0.0
	if c, note := newDepthChart([]view.Backlog{{Depth: &zero}, {Depth: nil}}); c != nil || note != "All 2 queues are empty: no depth to chart." {
		t.Errorf("empty queues: %v %q", c, note)
	}
	if c := newHistChart("x", []view.Bucket{{LE: "1", Count: 0}, {LE: "+Inf", Count: 0}}, nil, nil, nil); c != nil {
		t.Errorf("a histogram without observations: %+v", c)
	}
	rows, note := newLatencyRows(view.Report{Window: "lifetime", Events: []view.Events{{Queue: "q"}}})
	if rows != nil || !strings.Contains(note, "since each process started") {
		t.Errorf("no latency: %v %q", rows, note)
	}
	// Unknown quantiles (nil) draw no mark; known ones do.
	p50 := 0.005
	c := newHistChart("x", []view.Bucket{{LE: "0.001", Count: 1}, {LE: "0.01", Count: 3}, {LE: "+Inf", Count: 0}}, &p50, nil, nil)
	if c == nil || len(c.Marks) != 1 || c.Marks[0].Name != "p50" || len(c.Bars) != 3 {
		t.Errorf("chart: %+v", c)
	}
}

func TestNiceCeilAndShorten(t *testing.T) {
	for in, want := range map[float64]float64{0: 1, 0.3: 0.5, 1: 1, 7: 10, 138: 200, 2001: 5000} {
		if got := niceCeil(in); math.Abs(got-want) > 1e-9 {
			t.Errorf("niceCeil(%v) = %v, want %v", in, got, want)
		}
	}
	if got := shorten("kube-system/kube-controller-manager-node:10257 garbage_collector", 20); len([]rune(got)) != 20 || !strings.Contains(got, "…") {
		t.Errorf("shorten: %q", got)
	}
}
