package live

import (
	"context"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// mode is what the screen shows.
type mode int

const (
	table mode = iota
	filtering
	details
	help
)

// screenState is the state of the full-screen view: the latest frame, the history of every queue,
// and what the keys chose. Frames come in; nothing goes back to the run layer.
type screenState struct {
	ctx    context.Context
	next   Next
	loop   Loop
	styles styles

	frame   *view.Frame
	frames  int
	rows    []row // every row of the latest frame, in the list's order
	history map[string]*history
	// seed is the history before the session (the first frame's), by row key: a queue's
	// history starts with it.
	seed map[string]health.QueueHistory
	err  error
	// warnings are the distinct warnings of the frames so far, in order.
	warnings []string

	width, height int
	mode          mode
	sort          sortBy
	filter        string
	// selected is the key of the selected row, so that it stays selected as rows move.
	selected string
}

func newModel(next Next, loop Loop, s styles) *screenState {
	return &screenState{next: next, loop: loop, styles: s, history: map[string]*history{}, width: 80, height: 24}
}

// add takes a frame in: its rows, and a point of every queue's history. What came from
// outside (queue and target names, errors, warnings) is kept escaped (printable): the screen
// is a terminal.
func (m *screenState) add(f *view.Frame) {
	f = shown(f)
	m.frame, m.frames = f, m.frames+1
	m.rows = rowsOf(f.List)
	if len(f.History) > 0 && m.seed == nil {
		m.seed = map[string]health.QueueHistory{}
		for _, h := range f.History {
			m.seed[key(h.Target, h.Queue)] = h
		}
	}
	for _, w := range f.Warnings {
		if !slices.Contains(m.warnings, w) {
			m.warnings = append(m.warnings, w)
		}
	}
	for _, r := range m.rows {
		if r.err != "" {
			continue
		}
		h := m.history[r.key]
		if h == nil {
			h = &history{}
			if s, ok := m.seed[r.key]; ok {
				h.depth, h.adds = tail(s.Depth), tail(s.Adds)
			}
			m.history[r.key] = h
		}
		h.add(r.item.Depth, r.item.AddsPerSecond)
	}
	m.forgetGone()
}

// forgetGone drops the history of the targets no longer in the frame (gone from a
// rediscovery: a rollout's old pods), so that a long session does not pile them up. A target
// that fails keeps its error row, and its queues' history for when it answers again.
func (m *screenState) forgetGone() {
	present := map[string]bool{}
	for _, r := range m.rows {
		present[r.item.Target] = true
	}
	for k := range m.history {
		if t, _, _ := strings.Cut(k, "\x00"); !present[t] {
			delete(m.history, k)
		}
	}
}

// visible are the rows shown: filtered, then sorted.
func (m *screenState) visible() []row {
	rows := filter(append([]row(nil), m.rows...), m.filter)
	order(rows, m.sort)
	return rows
}

// cursor is the index of the selected row among rows (0 when it is not there).
func (m *screenState) cursor(rows []row) int {
	for i, r := range rows {
		if r.key == m.selected {
			return i
		}
	}
	return 0
}

// typed handles text typed or pasted at once as keys pressed one by one ("/widg" is / then a
// filter); it reports whether to quit.
func (m *screenState) typed(text string) bool {
	for _, r := range text {
		if m.key(tea.Key{Code: r, Text: string(r)}) {
			return true
		}
	}
	return false
}

// key handles a key press; it reports whether to quit.
func (m *screenState) key(k tea.Key) bool {
	if k.String() == "ctrl+c" {
		return true
	}
	if len([]rune(k.Text)) > 1 {
		return m.typed(k.Text)
	}
	switch m.mode {
	case filtering:
		switch {
		case k.Code == tea.KeyEnter:
			m.mode = table
		case k.Code == tea.KeyEscape:
			m.filter, m.mode = "", table
		case k.Code == tea.KeyBackspace:
			if r := []rune(m.filter); len(r) > 0 {
				m.filter = string(r[:len(r)-1])
			}
		case k.Text != "":
			m.filter += k.Text
		}
		return false
	case details, help:
		switch k.String() {
		case "q":
			return true
		case "esc", "enter", "backspace", "?":
			m.mode = table
		}
		return false
	}
	rows := m.visible()
	i := m.cursor(rows)
	if m.selected == "" {
		i = -1 // the first move or Enter selects the first row
	}
	switch k.String() {
	case "q":
		return true
	case "s":
		m.sort = (m.sort + 1) % sortModes
	case "/":
		m.mode = filtering
	case "?":
		m.mode = help
	case "esc":
		m.filter = ""
	case "up", "k":
		m.selectAt(rows, i-1)
	case "down", "j":
		m.selectAt(rows, i+1)
	case "enter":
		if len(rows) > 0 {
			m.selectAt(rows, max(i, 0))
			m.mode = details
		}
	}
	return false
}

// selectAt selects rows[i], kept within the rows.
func (m *screenState) selectAt(rows []row, i int) {
	if len(rows) > 0 {
		m.selected = rows[max(0, min(i, len(rows)-1))].key
	}
}

// selectedRow is the selected row of the latest frame, if it is still there.
func (m *screenState) selectedRow() (row, bool) {
	for _, r := range m.rows {
		if r.key == m.selected {
			return r, true
		}
	}
	return row{}, false
}

// findingsOf are the latest frame's findings on r's queue.
func (m *screenState) findingsOf(r row) []findings.Finding {
	var out []findings.Finding
	if m.frame == nil {
		return nil
	}
	for _, f := range m.frame.Findings {
		if f.Target == r.item.Target && (f.Queue == r.item.Queue || f.Queue == "") {
			out = append(out, f)
		}
	}
	return out
}
