package report

import (
	"math"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/capacity"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// sliRows are the service levels of one target's queues, with the headroom of its capacity
// rows (caps); a capacity row of a queue whose measured waits break the objective is marked
// already over, since the measurement wins over the model.
func sliRows(ft findings.Target, th findings.Thresholds, caps []view.Capacity) []view.SLI {
	var out []view.SLI
	specs := map[string]findings.SpecSLI{}
	for _, s := range findings.SpecSLIs(ft, th) {
		specs[s.Queue] = s
	}
	for _, s := range findings.SLIs(ft, th) {
		row := view.SLI{Target: s.Target, Queue: s.Queue, Controller: s.Controller, QueueWait: view.Objective{
			ObjectiveSeconds: s.Objective, Quantile: findings.SLOQuantile, Samples: view.Num(s.Counts.N), Over: view.Num(s.Counts.Over),
			OverAtMost: view.Num(s.Counts.OverAtMost), OverShare: view.Num(s.Counts.Over / s.Counts.N), P99Seconds: view.Num(s.P99),
			P99AtLeast: s.P99AtLeast && !math.IsNaN(s.P99), Verdict: string(s.Verdict), Why: s.Why}}
		for i := range caps {
			c := &caps[i]
			if c.Target != s.Target || c.Queue != s.Queue {
				continue
			}
			if s.Verdict == capacity.Breaks {
				c.MeasuredOver = true
				if c.Headroom != nil && *c.Headroom > 0 {
					c.HeadroomNote = "already over: the measured waits break the queue-wait objective; the model disagrees (" + c.HeadroomNote + ")"
				}
			}
			row.Headroom = &view.Headroom{OfferedPerSecond: c.OfferedPerSecond, MaxOfferedPerSecond: c.MaxOfferedPerSecond,
				Ratio: c.Headroom, Over: c.MeasuredOver || c.Headroom != nil && *c.Headroom <= 0, Note: c.HeadroomNote}
		}
		if sp, ok := specs[s.Queue]; ok && sp.Kind != "" {
			row.Spec = specObjective(sp)
		}
		out = append(out, row)
	}
	return out
}

// specObjective is the view of one spec-latency indicator.
func specObjective(s findings.SpecSLI) *view.SpecObjective {
	return &view.SpecObjective{Objective: view.Objective{ObjectiveSeconds: s.Objective, Quantile: findings.SLOQuantile,
		Samples: view.Num(s.Counts.N), Over: view.Num(s.Counts.Over), OverAtMost: view.Num(s.Counts.OverAtMost),
		OverShare: view.Num(s.Counts.Over / s.Counts.N), P99Seconds: view.Num(s.P99), Verdict: string(s.Verdict), Why: s.Why},
		Kind: s.Kind, Changes: s.Changes, Pending: s.Pending, P50Seconds: view.Num(s.P50), Undecided: s.Undecided}
}
