package run

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/capacity"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// setQueueWait gives every row of l its queue's queue-wait service level over the frame's
// window: the report's indicator (findings.SLIs) and verdict rules, so that a frame with too
// few waits for a p99 is not judged, never a warning on a quiet queue. Why is put in top's
// words: its window is the refresh, not --interval.
func setQueueWait(l *view.QueueList, targets []findings.Target, th findings.Thresholds) {
	type key struct{ target, queue string }
	by := map[key]*view.Objective{}
	for _, t := range targets {
		for _, s := range findings.SLIs(t, th) {
			by[key{s.Target, s.Queue}] = topObjective(s, t.Window)
		}
	}
	for i := range l.Items {
		l.Items[i].QueueWait = by[key{l.Items[i].Target, l.Items[i].Queue}]
	}
}

// topObjective is the view of one queue's queue-wait indicator in a frame of window.
func topObjective(s findings.QueueSLI, window time.Duration) *view.Objective {
	o := &view.Objective{ObjectiveSeconds: s.Objective, Quantile: findings.SLOQuantile, Samples: view.Num(s.Counts.N),
		Over: view.Num(s.Counts.Over), OverAtMost: view.Num(s.Counts.OverAtMost), OverShare: view.Num(s.Counts.Over / s.Counts.N),
		P99Seconds: view.Num(s.P99), P99AtLeast: s.P99AtLeast && !math.IsNaN(s.P99), Verdict: string(s.Verdict), Why: s.Why}
	if s.Verdict != capacity.NotJudged {
		return o
	}
	need := math.Ceil(1/(1-findings.SLOQuantile) - 1e-9)
	switch {
	case s.Counts.N > 0:
		o.Why = fmt.Sprintf("%.0f waits in %s, a p99 needs %.0f: a longer --refresh", s.Counts.N, window.Round(100*time.Millisecond), need)
	case s.Counts.N == 0:
		o.Why = fmt.Sprintf("no waits in %s", window.Round(100*time.Millisecond))
	case strings.HasPrefix(s.Why, "one sample"):
		o.Why = "the first refresh: the waits since the process started hold its start-up"
	}
	return o
}
