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
		if !r.ResetsCounted {
			t.sinceRestart()
		}
	}
	var labels map[string]string
	if r.Pod != nil {
		labels = r.Pod.Labels
	}
	t.Kind = KindOf(t.Cur, labels)
	t.Queues = health.Queues(t.ID, t.Prev, t.Cur, t.Window)
	for i := range t.Queues {
		t.Queues[i].SinceRestart = t.Restart != ""
	}
	Judge(&t, th)
	health.Sort(t.Queues)
	return t, true
}

// sinceRestart replaces a window across a restart of the target by what the evidence allows:
// the later process's counts since its start (when its start time is known and came after the
// first sample), else its lifetime figures alone. Counts of two processes never make a rate.
func (t *Target) sinceRestart() {
	why := health.Restarted(t.Prev, t.Cur)
	if why == "" {
		return
	}
	t.Restart = why
	if start, window, ok := health.SinceStart(t.Prev, t.Cur); ok {
		t.Prev, t.Window = health.Started(start), window
		return
	}
	t.Prev, t.Window = nil, 0
}
