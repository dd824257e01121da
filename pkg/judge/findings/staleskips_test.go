package findings

import (
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/testpages"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// kcmSkips is kube-controller-manager 1.36's page with its replicaset queue and the counter
// of syncs skipped for a stale cache, as the ReplicaSet controller registers it.
func kcmSkips(t *testing.T, skips float64) *health.Snapshot {
	page := `# HELP workqueue_depth [STABLE] Current depth of workqueue
# TYPE workqueue_depth gauge
workqueue_depth{name="replicaset"} 0
# HELP workqueue_adds_total [STABLE] Total number of adds handled by workqueue
# TYPE workqueue_adds_total counter
workqueue_adds_total{name="replicaset"} 40
# HELP replicaset_controller_stale_sync_skips_total [ALPHA] Total number of ReplicaSet syncs skipped due to a stale watch cache.
# TYPE replicaset_controller_stale_sync_skips_total counter
replicaset_controller_stale_sync_skips_total{group="apps",resource="replicasets"} ` + strings.TrimSpace(format(skips, "")) + "\n"
	return health.FromFamilies(testpages.ParseText(t, page), time.Time{})
}

// Syncs skipped in the window are info on the queue, with the count; none in the window, or a
// page without the counter, say nothing.
func TestStaleSyncSkips(t *testing.T) {
	judge := func(prev, cur *health.Snapshot) []Finding {
		tg := Target{ID: "kube-system/kcm:10257", Kind: ClientGo, Prev: prev, Cur: cur, Window: 10 * time.Second,
			Queues: health.Queues("t", prev, cur, 10*time.Second)}
		Judge(&tg, DefaultThresholds())
		return Evaluate([]Target{tg}, nil, nil, DefaultThresholds())
	}
	fs := judge(kcmSkips(t, 3), kcmSkips(t, 10))
	if got := checks(fs); got != "info:stale-sync-skips" {
		t.Fatalf("findings %q", got)
	}
	if fs[0].Queue != "replicaset" || !strings.Contains(fs[0].Summary, "skipped 7 syncs in the last 10s") {
		t.Errorf("%+v", fs[0])
	}
	if got := checks(judge(kcmSkips(t, 10), kcmSkips(t, 10))); got != "" {
		t.Errorf("no skip in the window: %q", got)
	}
}
