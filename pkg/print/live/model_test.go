package live

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// twoQueues is a frame of a deep queue "backed" (BACKLOG) and a shallow one "calm" (OK) of
// target a; when gone, target b failed.
func twoQueues(n int, gone bool) *view.Frame {
	backed := nan(health.QueueStats{Target: "a", Queue: "backed", Depth: float64(100 * n), AddsPerSecond: 5, Window: 2 * time.Second,
		Status: health.StatusBacklog, Reason: "wait in backed (CD201)"})
	calm := nan(health.QueueStats{Target: "a", Queue: "calm", Depth: 1, AddsPerSecond: float64(50 * n), Window: 2 * time.Second, Status: health.StatusOK})
	var errs []view.TargetError
	if gone {
		errs = append(errs, view.TargetError{Target: "b", Error: "503 Service Unavailable"})
	}
	f := &view.Frame{Time: time.Date(2026, 1, 1, 0, 0, 2*n, 0, time.UTC), List: view.NewQueueList([]health.QueueStats{backed, calm}, errs)}
	f.Findings = []findings.Finding{{Code: "CD201", Check: "backlog-growing", Severity: "warning", Title: "Backlog growing", Target: "a", Queue: "backed",
		Summary: "300 items wait in backed", Evidence: []findings.Evidence{{Name: "depth", Value: "300", Threshold: ">= 100"}}}}
	return f
}

// plainStyles draw nothing but the text, as a terminal without attributes shows it.
func plainStyles() styles {
	p := lipgloss.NewStyle()
	return styles{title: p, header: p, selected: p, dim: p}
}

func plainModel() *screenState {
	m := newModel(nil, Loop{}, plainStyles())
	m.width, m.height = 160, 20
	return m
}

func press(m *screenState, keys ...string) {
	for _, k := range keys {
		var msg tea.KeyPressMsg
		switch k {
		case "enter":
			msg = tea.KeyPressMsg{Code: tea.KeyEnter}
		case "esc":
			msg = tea.KeyPressMsg{Code: tea.KeyEscape}
		case "down":
			msg = tea.KeyPressMsg{Code: tea.KeyDown}
		default:
			r := []rune(k)
			msg = tea.KeyPressMsg{Code: r[0], Text: k}
		}
		m.Update(msg)
	}
}

// lineOf is the first line of the view holding s.
func lineOf(view, s string) string {
	for _, l := range strings.Split(view, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

func TestViewRowsSortFilterDetails(t *testing.T) {
	m := plainModel()
	for n := 1; n <= 3; n++ {
		f := twoQueues(n, n == 3)
		f.Warnings = []string{"a: the bearer token is sent over plain http"}
		m.Update(frameMsg{frame: f})
	}
	v := m.screen()
	if l := strings.Split(v, "\n")[0]; !strings.HasSuffix(l, "warning (1): a: the bearer token is sent over plain http") {
		t.Errorf("title line: %q", l)
	}
	if got := len(strings.Split(v, "\n")); got != 20 {
		t.Errorf("%d lines, want the height 20", got)
	}
	for _, l := range strings.Split(v, "\n") {
		if ansi.StringWidth(l) > 160 {
			t.Errorf("line wider than the screen: %q", l)
		}
	}
	if strings.Contains(v, "\x1b[3") {
		t.Errorf("colour without a colour profile:\n%q", v)
	}
	// Worst first: the failed target, then the backlog, then the calm queue; sparklines climb.
	b, backed, calm := strings.Index(v, "503 Service"), strings.Index(v, "backed"), strings.Index(v, "calm")
	if b < 0 || !(b < backed && backed < calm) {
		t.Fatalf("order ERROR, BACKLOG, OK:\n%s", v)
	}
	if l := lineOf(v, "backed"); !strings.Contains(l, "300") || !strings.Contains(l, "▃▆█") || !strings.Contains(l, "CD201") {
		t.Errorf("backed row: %q", l)
	}
	if l := lineOf(v, "b    "); !strings.Contains(l, "ERROR") {
		t.Errorf("error row: %q", l)
	}

	press(m, "s", "s") // adds/s: calm first
	v = m.screen()
	if !strings.Contains(v, "sort: adds/s") || strings.Index(v, "calm") > strings.Index(v, "backed") {
		t.Errorf("sort by adds/s:\n%s", v)
	}
	press(m, "/", "c", "a", "l", "enter")
	v = m.screen()
	if !strings.Contains(v, "filter: cal") || strings.Contains(v, "backed") || !strings.Contains(v, "calm") {
		t.Errorf("filter cal:\n%s", v)
	}
	press(m, "esc", "s", "s") // filter cleared, sort back to status
	press(m, "down", "down", "enter")
	v = m.screen()
	for _, want := range []string{"a  backed  BACKLOG", "  depth 300   adds/s 5", "WARNING CD201 Backlog growing: 300 items wait in backed", "depth: 300 (threshold >= 100)"} {
		if !strings.Contains(v, want) {
			t.Errorf("details lack %q:\n%s", want, v)
		}
	}
	press(m, "esc", "?")
	if v = m.screen(); !strings.Contains(v, "cycle the sort") {
		t.Errorf("help:\n%s", v)
	}
	press(m, "esc")
	m.Update(tea.WindowSizeMsg{Width: 60, Height: 8})
	v = m.screen()
	if len(strings.Split(v, "\n")) != 8 || ansi.StringWidth(lineOf(v, "TARGET")) > 60 {
		t.Errorf("after a resize to 60x8:\n%s", v)
	}
	if _, cmd := m.Update(tea.KeyPressMsg{Code: 'q', Text: "q"}); cmd == nil {
		t.Error("q does not quit")
	}
}

// A frame that cannot be made ends the view with its error.
func TestScreenEndsOnAFrameError(t *testing.T) {
	m := plainModel()
	m.ctx = context.Background()
	if _, cmd := m.Update(frameMsg{err: context.DeadlineExceeded}); cmd == nil || m.err == nil {
		t.Error("no quit on a frame error")
	}
}

// The first frame's history starts the sparklines of its queues: the table's are full from
// the first frame; a queue without history starts with the frame's point alone; points of a
// longer history than the sparkline holds are dropped, oldest first.
func TestHistoryFillsTheFirstSparklines(t *testing.T) {
	m := plainModel()
	f := twoQueues(1, false)
	depth, adds := make([]float64, HistoryPoints+5), make([]float64, HistoryPoints+5)
	for i := range depth {
		depth[i], adds[i] = float64(10*i), 5
	}
	depth[0] = 1e6 // too old to be kept: it would flatten the others
	adds[len(adds)-1] = math.NaN()
	f.History = []health.QueueHistory{{Target: "a", Queue: "backed", Depth: depth, Adds: adds}, {Target: "z", Queue: "gone", Depth: []float64{1}}}
	m.Update(frameMsg{frame: f})
	h := m.history[key("a", "backed")]
	if len(h.depth) != sparkWidth || h.depth[sparkWidth-1] != 100 || h.depth[0] != depth[len(depth)-HistoryPoints] {
		t.Errorf("depth history %v", h.depth)
	}
	if got := sparkline(h.depth, sparkWidth); strings.Contains(got, " ") {
		t.Errorf("depth sparkline %q is not full", got)
	}
	// adds: 5/s all along, then a point the server does not have, then the frame's 5/s.
	if got, want := sparkline(h.adds, sparkWidth), strings.Repeat("█", sparkWidth-2)+" █"; got != want {
		t.Errorf("adds sparkline %q, want %q", got, want)
	}
	if c := m.history[key("a", "calm")]; len(c.depth) != 1 {
		t.Errorf("calm, without history: %v", c.depth)
	}
	if l := lineOf(m.screen(), "backed"); !strings.Contains(l, sparkline(h.depth, sparkWidth)) {
		t.Errorf("backed row %q lacks its full sparkline", l)
	}
}

// A target that fails keeps its queues' history for when it answers again; a target no longer
// in the frames (gone from a rediscovery) has its history dropped.
func TestHistoryOfGoneTargetsIsDropped(t *testing.T) {
	m := plainModel()
	m.add(twoQueues(1, false))
	failing := &view.Frame{List: view.NewQueueList(nil, []view.TargetError{{Target: "a", Error: "connection refused"}})}
	m.add(failing)
	if len(m.history) != 2 {
		t.Fatalf("a failing: history of %d queues, want a's 2 kept", len(m.history))
	}
	m.add(&view.Frame{List: view.NewQueueList(nil, nil)})
	if len(m.history) != 0 {
		t.Errorf("a gone: history of %d queues left", len(m.history))
	}
}

// A standby folded into its leader's rows keeps a STANDBY row saying so, as in the table.
func TestFoldedStandbyHasARow(t *testing.T) {
	f := twoQueues(1, false)
	f.List.Replicas = []model.ReplicaGroup{{Namespace: "ops", Workload: "op", Leader: "a", LeaderFrom: "Lease ops/op-lock",
		Replicas: []model.ReplicaMember{{Target: "a", Pod: "op-a"}, {Target: "b", Pod: "op-b", Folded: true}}}}
	m := plainModel()
	m.add(f)
	var standby *row
	for i, r := range m.rows {
		if r.item.Target == "b" {
			standby = &m.rows[i]
		}
	}
	if standby == nil || standby.status() != "STANDBY" || !strings.Contains(standby.reason(), "folded into the rows of the leader a") {
		t.Fatalf("rows %+v", m.rows)
	}
	if screen := ansi.Strip(m.screen()); !strings.Contains(screen, "STANDBY") {
		t.Errorf("the view shows no STANDBY row:\n%s", screen)
	}
}
