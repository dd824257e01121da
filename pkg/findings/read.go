package findings

import (
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/source"
)

// Read builds the target the rules judge from what a source read of it: the snapshots of its
// samples (two: over the window; one: over the process's lifetime), the kind of controller,
// and its queues, worst first, with their STATUS judged (with the objects the controllers
// reconcile, when they were read; nil otherwise). ok is false when it gave no sample.
func Read(r source.Result, th Thresholds, objs *objects.View) (t Target, ok bool) {
	n := len(r.Samples)
	if n == 0 {
		return Target{}, false
	}
	last := r.Samples[n-1]
	t = Target{ID: r.ID(), Cur: health.FromFamilies(last.Families, last.Time), Objects: objs}
	if n >= 2 {
		t.Prev, t.Window = health.FromFamilies(r.Samples[0].Families, r.Samples[0].Time), r.Window
		t.sinceRestart(r.ResetsCounted)
	}
	var labels map[string]string
	if r.Pod != nil {
		labels = r.Pod.Labels
	}
	t.Kind = KindOf(t.Cur, labels)
	t.queues()
	Judge(&t, th)
	health.Sort(t.Queues)
	return t, true
}
