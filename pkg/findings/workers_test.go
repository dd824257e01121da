package findings

import (
	"math"
	"testing"
)

// The workers of a queue: --workers wins, then the metric, then the knob's flag in the
// container's arguments, then its documented default; unknown without any.
func TestWorkersOf(t *testing.T) {
	kcm := Target{Pod: &Pod{Args: []string{"kube-controller-manager", "--concurrent-deployment-syncs=8"}}}
	for _, tc := range []struct {
		what   string
		t      Target
		queue  string
		metric float64
		n      float64
		from   string
	}{
		{"flag in args", kcm, "deployment", math.NaN(), 8, "--concurrent-deployment-syncs in the container's arguments"},
		{"default", kcm, "replicaset", math.NaN(), 5, "the default of --concurrent-replicaset-syncs"},
		{"metric over args", kcm, "deployment", 3, 3, "controller_runtime_max_concurrent_reconciles"},
		{"--workers over all", Target{Pod: kcm.Pod, Workers: map[string]float64{"deployment": 12}}, "deployment", 3, 12, "--workers"},
		{"no knob for the queue", kcm, "garbage_collector_graph_changes", math.NaN(), math.NaN(), ""},
		{"no pod", Target{}, "deployment", math.NaN(), math.NaN(), ""},
	} {
		n, from := workersOf(tc.t, recognise(tc.t), tc.queue, tc.metric)
		if !(n == tc.n || math.IsNaN(n) && math.IsNaN(tc.n)) || from != tc.from {
			t.Errorf("%s: %v %q, want %v %q", tc.what, n, from, tc.n, tc.from)
		}
	}
}
