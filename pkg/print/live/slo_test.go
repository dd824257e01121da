package live

import (
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// WAIT SLO shows each queue's verdict over the frame's window, after QUEUE p99; the details
// give the waits, those over the objective and why a quiet queue is not judged.
func TestViewShowsTheQueueWaitSLO(t *testing.T) {
	m := plainModel()
	f := twoQueues(1, false)
	for i := range f.List.Items {
		it := &f.List.Items[i]
		switch it.Queue {
		case "backed":
			it.QueueWait = &view.Objective{ObjectiveSeconds: 1, Samples: view.Num(200), Over: view.Num(100), OverShare: view.Num(0.5), Verdict: "breaks"}
		case "calm":
			it.QueueWait = &view.Objective{ObjectiveSeconds: 1, Samples: view.Num(2), Over: view.Num(0), OverShare: view.Num(0), Verdict: "not-judged",
				Why: "2 waits in 2s, a p99 needs 100: a longer --refresh"}
		}
	}
	m.Update(frameMsg{frame: f})
	v := m.screen()
	if h := lineOf(v, "TARGET"); !strings.Contains(h, "QUEUE p99 WAIT SLO") {
		t.Errorf("header %q, want WAIT SLO after QUEUE p99", h)
	}
	if l := lineOf(v, "backed"); !strings.Contains(l, "breaks") {
		t.Errorf("backed row %q, want breaks", l)
	}
	if l := lineOf(v, "calm"); !strings.Contains(l, "not-judged") || strings.Contains(l, "breaks") {
		t.Errorf("calm row %q, want not-judged", l)
	}
	press(m, "down", "down", "enter")
	v = m.screen()
	if !strings.Contains(v, "queue wait SLO (p99 <= 1s): not-judged   waits 2   over 1s 0 (0.0%)   2 waits in 2s, a p99 needs 100") {
		t.Errorf("details of calm lack its queue wait:\n%s", v)
	}
}

// On a screen too narrow for WAIT SLO beside TOP FINDING's header the column is left out,
// not TOP FINDING cut; the details still give the verdict.
func TestNarrowViewLeavesWaitSLOOut(t *testing.T) {
	m := plainModel()
	m.width = 110
	f := twoQueues(1, false)
	for i := range f.List.Items {
		f.List.Items[i].QueueWait = &view.Objective{ObjectiveSeconds: 1, Verdict: "holds"}
	}
	m.Update(frameMsg{frame: f})
	v := m.screen()
	if h := lineOf(v, "TARGET"); strings.Contains(h, "WAIT SLO") || !strings.Contains(h, "TOP FINDING") {
		t.Errorf("header at 110 columns %q: want TOP FINDING whole and no WAIT SLO", h)
	}
	if l := lineOf(v, "calm"); strings.Contains(l, "holds") {
		t.Errorf("calm row %q shows the verdict without its column", l)
	}
	press(m, "down", "down", "enter")
	if v = m.screen(); !strings.Contains(v, "queue wait SLO (p99 <= 1s): holds") {
		t.Errorf("details lack the verdict:\n%s", v)
	}
}
