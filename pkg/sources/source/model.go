package source

import (
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// Model turns what was read into the model, in the results' order: each sample becomes its
// snapshot once, here, and nothing after this stage sees a parsed page.
func Model(results []Result) []model.Target {
	out := make([]model.Target, len(results))
	for i, r := range results {
		out[i] = r.Model()
	}
	return out
}

// Model is the target of the model r is: its facts and the snapshot of each of its samples.
func (r Result) Model() model.Target {
	pages := make([]model.Page, len(r.Samples))
	for i, s := range r.Samples {
		pages[i] = model.Page{Families: s.Families, Time: s.Time}
	}
	return model.Of(r.Facts(), pages)
}

// With is the target of the model r is, with snapshots built before (a live view keeps the
// previous refresh's) in place of its samples'.
func (r Result) With(snaps ...*health.Snapshot) model.Target {
	return model.Target{Facts: r.Facts(), Snapshots: snaps}
}

// Facts are what the source says of the target besides its pages.
func (r Result) Facts() model.Facts {
	return model.Facts{Target: r.Target, Pod: r.Pod, WatchEnv: r.WatchEnv, Window: r.Window, ResetsCounted: r.ResetsCounted, Err: r.Err, Notes: r.Notes}
}
