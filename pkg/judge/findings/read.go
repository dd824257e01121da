package findings

import (
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// Read builds the target the rules judge from a target read into the model: the snapshots of
// its samples (two: over the window; one: over the process's lifetime), the kind of
// controller, and its queues, worst first, with their STATUS judged (with the objects the
// controllers reconcile, when they were read; nil otherwise). ok is false when it gave no
// sample.
func Read(m model.Target, th Thresholds, objs *objects.View) (t Target, ok bool) {
	n := len(m.Snapshots)
	if n == 0 {
		return Target{}, false
	}
	t = Target{ID: m.ID(), Cur: m.Last(), Objects: objs}
	if n >= 2 {
		t.Prev, t.Window = m.First(), m.Window
		t.sinceRestart(m.ResetsCounted)
	}
	t.Kind = KindOf(t.Cur, m.PodLabels())
	t.queues()
	Judge(&t, th)
	health.Sort(t.Queues)
	return t, true
}
