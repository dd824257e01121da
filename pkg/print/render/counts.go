package render

import (
	"fmt"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// targetsRead is how many of the targets were read: "1 of 1 target read", "2 of 3 targets read".
func targetsRead(s view.Summary) string {
	return fmt.Sprintf("%d of %s read", s.Read, printable.Plural(s.Targets, "target"))
}

// allEmpty says that the n queues read are all empty: "All 3 queues are empty", "The 1 queue
// is empty", "No queue was read".
func allEmpty(n int) string {
	switch n {
	case 0:
		return "No queue was read"
	case 1:
		return "The 1 queue is empty"
	}
	return fmt.Sprintf("All %d queues are empty", n)
}
