package findings

import (
	"fmt"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// sinceRestart replaces a window across a restart of the target by what the evidence allows:
// the later process's counts since its start (when its start time is known and came after the
// first sample), else its lifetime figures alone. Counts of two processes never make a rate;
// a source whose first sample is already exact about resets (resetsCounted) keeps its window.
func (t *Target) sinceRestart(resetsCounted bool) {
	why := health.Restarted(t.Prev, t.Cur)
	if why == "" {
		return
	}
	t.Restart = why
	if resetsCounted {
		t.Notes = append(t.Notes, fmt.Sprintf("%s restarted within the window (%s): the server's raw samples count the work of both processes", t.ID, why))
		return
	}
	t.restarted = true
	if start, window, ok := health.SinceStart(t.Prev, t.Cur); ok {
		t.Prev, t.Window = health.Started(start), window
		t.Notes = append(t.Notes, fmt.Sprintf("%s restarted between its samples (%s): its figures are over the %s since the new process started, not the window",
			t.ID, why, health.WindowText(window)))
		return
	}
	t.Prev, t.Window = nil, 0
	t.Notes = append(t.Notes, fmt.Sprintf("%s restarted between its samples (%s): only its lifetime figures are shown (no rates: its start time is unknown or before the first sample)", t.ID, why))
}

// queues computes the queues' figures over the window; where the work they finished cannot
// fit in it, the window is wrong (the pages were taken further apart than it says), and the
// figures are the later sample's lifetime ones instead, with a note that says so.
func (t *Target) queues() {
	t.Queues = health.Queues(t.ID, t.Prev, t.Cur, t.Window)
	if t.Prev != nil {
		for _, q := range t.Queues {
			if why := health.WorkBeyondWindow(q); why != "" {
				t.Notes = append(t.Notes, fmt.Sprintf("%s: the window cannot be %s: %s; check the pages' sample-time comments, or --interval when they have none (figures shown over the process's lifetime instead)",
					t.ID, health.WindowText(t.Window), why))
				t.Prev, t.Window, t.WindowWrong = nil, 0, why
				t.Queues = health.Queues(t.ID, nil, t.Cur, 0)
				break
			}
		}
	}
	for i := range t.Queues {
		t.Queues[i].SinceRestart = t.restarted
	}
}
