package live

import (
	"fmt"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/render"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// sloFits reports whether the table has room for WAIT SLO on a screen width wide, with target
// and queue columns that wide: the column is left out rather than cut TOP FINDING's header
// (the details of a queue always give the verdict).
func sloFits(target, queue, width int) bool {
	fixed := 0
	for _, w := range widthsOf(target, queue) {
		fixed += w + 1 // and the blank after it
	}
	return fixed+len("TOP FINDING") <= width
}

// queueWaitLine is the details view's line of a queue's queue-wait service level over the
// frame's window: the waits, those over the objective, the verdict and why it is not judged.
func queueWaitLine(o *view.Objective) string {
	if o == nil {
		return "queue wait SLO: -"
	}
	objective := render.Seconds(&o.ObjectiveSeconds)
	s := fmt.Sprintf("queue wait SLO (p99 <= %s): %s   waits %s   over %s %s", objective, o.Verdict, render.Count(o.Samples), objective, render.Count(o.Over))
	if o.OverShare != nil {
		s += fmt.Sprintf(" (%.1f%%)", 100**o.OverShare)
	}
	if o.Why != "" {
		s += "   " + o.Why
	}
	return s
}
