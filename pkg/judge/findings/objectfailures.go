package findings

import (
	"fmt"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// objectFailures judges a queue that exports no reconcile counts (kube-controller-manager's,
// a plain client-go controller's) by the objects it reconciles: when their status says some
// fail, and the oldest has failed for longer than the window (a state, not the moment of a
// rollout), they are persistent-failures on that queue, as on an operator's, with the objects,
// their reason and the Warning events that name them.
func objectFailures(t Target, q health.QueueStats) (Finding, bool) {
	objs := t.Objects.Of(t.ID, q.Queue)
	if objs == nil || objs.Failed == 0 {
		return Finding{}, false
	}
	oldest := 0.0
	for _, r := range objs.Reasons {
		oldest = max(oldest, r.OldestSeconds)
	}
	if !(oldest > t.Window.Seconds()) {
		return Finding{}, false
	}
	evs := append(objectEvidence(objs), eventEvidence(t, eventsOf(t, q.Queue))...)
	return newFinding("persistent-failures", t.Kind, t.ID, q.Queue,
		fmt.Sprintf("%s, the oldest for %s", failedObjects(objs), format(oldest, "s")), evs...).as(health.StatusFailing), true
}
