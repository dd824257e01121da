//go:build e2e

package e2e

import (
	"os/exec"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/promserver"
)

// historyRate and historyDepth are the backfilled queue's adds/s and depth.
const historyRate, historyDepth = 2.0, 3.0

// downsampledHistory backfills one controller's queue widgets (job operator, namespace ns, 2
// adds/s, depth 3) from start to end at step, compacts and downsamples it with thanos compact
// under keep, and serves it through a Thanos Store and Query; the bucket must then hold blocks
// of resolution want (milliseconds) only.
func downsampledHistory(t *testing.T, ns string, start, end time.Time, step time.Duration, keep promserver.Retention, want int64) *promserver.ThanosHistory {
	t.Helper()
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Fatal("this test backfills blocks with promtool: install Debian's prometheus package (hack/test-deps.sh does, as root)")
	}
	h := promserver.QueueHistory{
		Labels: map[string]string{"job": "operator", "instance": "10.0.0.1:8080", "namespace": ns, "pod": "operator-0", "name": "widgets"},
		Start:  start, End: end, Step: step, AddsPerSecond: historyRate, Depth: historyDepth,
	}
	hist := promserver.ThanosDownsampled(t, thanosBin(t), promtool, h.OpenMetrics(), map[string]string{"cluster": ns}, keep)
	if len(hist.Resolutions) == 0 {
		t.Fatal("after compaction the bucket holds no block")
	}
	for _, r := range hist.Resolutions {
		if r != want {
			t.Fatalf("after compaction the bucket holds blocks of resolutions %v, want only %d", hist.Resolutions, want)
		}
	}
	return hist
}
