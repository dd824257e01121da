package render

import (
	"slices"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// sloColumn is where WAIT SLO goes in the queue table: after WINDOW, so that the columns of
// queues keep their places (a script reading the Nth field of top's rows still finds STATUS),
// before those of wide.
const sloColumn = 11

// hasSLO reports whether a row of l carries its queue-wait service level (top's frames).
func hasSLO(l view.QueueList) bool {
	for _, it := range l.Items {
		if it.QueueWait != nil {
			return true
		}
	}
	return false
}

// withSLO puts the WAIT SLO cell into a row of the queue table.
func withSLO(r []string, cell string) []string {
	return slices.Insert(r, sloColumn, cell)
}

// SLOVerdict is a queue-wait service level as a cell: breaks, holds, unknown, not-judged; "-"
// when none was judged.
func SLOVerdict(o *view.Objective) string {
	if o == nil || o.Verdict == "" {
		return "-"
	}
	return o.Verdict
}
