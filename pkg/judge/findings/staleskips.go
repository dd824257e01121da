package findings

import (
	"fmt"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
)

// staleSkips is info on a queue whose controller skipped syncs because its cache was behind
// its own last write (kube-controller-manager 1.36, <controller>_stale_sync_skips_total): it
// waited rather than act on stale objects, as designed, and says that its watch trailed its
// writes. Over the window when read twice; since the process started when read once or when
// the counter went back (a restart).
func staleSkips(t Target, q health.QueueStats) []Finding {
	if t.Cur == nil || t.Cur.StaleSyncSkips == nil {
		return nil
	}
	cur, ok := t.Cur.StaleSyncSkips[q.Queue]
	if !ok {
		return nil
	}
	n, when := cur, "since the process started"
	if t.Prev != nil && t.Window > 0 {
		if prev := t.Prev.StaleSyncSkips[q.Queue]; cur >= prev {
			n, when = cur-prev, over(t)
		}
	}
	if !(n > 0) {
		return nil
	}
	return []Finding{newFinding("stale-sync-skips", t.Kind, t.ID, q.Queue,
		fmt.Sprintf("%s skipped %s %s because its cache was behind its own writes", q.Queue, printable.Plural(int(n), "sync"), when),
		Evidence{Name: "stale_sync_skips_total", Value: format(n, "") + " " + when})}
}
