package render

import (
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// Counts of one thing are said in the singular: "1 of 1 target read", "The 1 queue is empty".
func TestCountsAreSaidInTheSingularForOne(t *testing.T) {
	for _, tc := range []struct {
		s    view.Summary
		want string
	}{
		{view.Summary{Read: 1, Targets: 1}, "1 of 1 target read"},
		{view.Summary{Read: 0, Targets: 1}, "0 of 1 target read"},
		{view.Summary{Read: 4, Targets: 5}, "4 of 5 targets read"},
	} {
		if got := targetsRead(tc.s); got != tc.want {
			t.Errorf("targetsRead(%+v) = %q, want %q", tc.s, got, tc.want)
		}
	}
	for n, want := range map[int]string{0: "No queue was read", 1: "The 1 queue is empty", 3: "All 3 queues are empty"} {
		if got := allEmpty(n); got != want {
			t.Errorf("allEmpty(%d) = %q, want %q", n, got, want)
		}
	}
}
