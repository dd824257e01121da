package live

import (
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/render"
)

// sparkWidth is how many refreshes a sparkline of the table shows.
const sparkWidth = 12

// View is the screen on the alternate screen buffer, which the terminal leaves as it was.
func (m *screenState) View() tea.View {
	v := tea.NewView(m.screen())
	v.AltScreen = true
	return v
}

// screen draws the screen: exactly height lines, none wider than width.
func (m *screenState) screen() string {
	var lines []string
	switch m.mode {
	case details:
		lines = m.detailsView()
	case help:
		lines = helpView()
	default:
		lines = m.tableView()
	}
	body := m.height - 1
	if len(lines) > body {
		lines = lines[:body]
	}
	for len(lines) < body {
		lines = append(lines, "")
	}
	lines = append(lines, m.footer())
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, m.width, "…")
	}
	return strings.Join(lines, "\n")
}

func (m *screenState) titleLine() string {
	if m.frame == nil {
		return m.styles.title.Render("kubectl ctrldiag top") + "  reading the targets…"
	}
	t := fmt.Sprintf("kubectl ctrldiag top  %s  window: %s  sort: %s", m.frame.Time.UTC().Format(time.TimeOnly+" MST"), m.frame.Window(), m.sort)
	if m.filter != "" {
		t += "  filter: " + m.filter
	}
	t = m.styles.title.Render(t)
	if n := len(m.warnings); n > 0 {
		// The latest warning; stderr is the screen's, so this is where they show.
		t += fmt.Sprintf("  warning (%d): %s", n, m.warnings[n-1])
	}
	return t
}

func (m *screenState) footer() string {
	switch m.mode {
	case filtering:
		return "/" + m.filter + "▏  (Enter keeps it, Esc clears it)"
	case details:
		return m.styles.dim.Render("Esc back  q quit")
	case help:
		return m.styles.dim.Render("Esc back  q quit")
	}
	return m.styles.dim.Render("q quit  s sort  / filter  ↑↓ select  Enter details  ? help")
}

// widthsOf are the widths of a row's cells but the last (TOP FINDING), WAIT SLO included.
func widthsOf(target, queue int) []int {
	return []int{target, queue, 7, sparkWidth, 8, sparkWidth, 9, 9, 10, 9, 8}
}

// sloAt is the index of WAIT SLO among a row's cells.
const sloAt = 8

// columns lays a row out: fixed widths, the reason taking what is left. Without slo the WAIT
// SLO cell is left out.
func columns(target, queue int, slo bool, cells []string) string {
	widths := widthsOf(target, queue)
	if !slo {
		widths = slices.Delete(widths, sloAt, sloAt+1)
		cells = slices.Delete(slices.Clone(cells), sloAt, sloAt+1)
	}
	var b strings.Builder
	for i, c := range cells {
		if i < len(widths) {
			c = pad(c, widths[i])
		}
		b.WriteString(c)
		if i < len(cells)-1 {
			b.WriteString(" ")
		}
	}
	return b.String()
}

// pad cuts or pads s to w cells (colours kept).
func pad(s string, w int) string {
	s = ansi.Truncate(s, w, "…")
	return s + strings.Repeat(" ", max(0, w-ansi.StringWidth(s)))
}

func (m *screenState) tableView() []string {
	rows := m.visible()
	tw, qw := len("TARGET"), len("QUEUE")
	for _, r := range rows {
		tw, qw = max(tw, len(r.item.Target)), max(qw, len(r.item.Queue))
	}
	tw, qw = min(tw, max(20, m.width/3)), min(qw, 28)
	slo := sloFits(tw, qw, m.width)
	lines := []string{m.titleLine(), m.styles.header.Render(columns(tw, qw, slo,
		[]string{"TARGET", "QUEUE", "DEPTH", "depth", "ADDS/s", "adds/s", "RETRIES/s", "QUEUE p99", "WAIT SLO", "WORK p99", "STATUS", "TOP FINDING"}))}
	if len(rows) == 0 && m.frame != nil {
		return append(lines, "no queue matches")
	}
	cur := m.cursor(rows)
	// Scroll so that the selected row shows.
	room := max(1, m.height-3)
	first := max(0, cur-room+1)
	for i := first; i < len(rows) && i < first+room; i++ {
		r := rows[i]
		var line string
		if r.err != "" {
			line = columns(tw, qw, slo, []string{r.item.Target, "-", "-", "", "-", "", "-", "-", "-", "-", m.styles.statusCell(r.status()), r.reason()})
		} else {
			it := r.item
			h := m.history[r.key]
			line = columns(tw, qw, slo, []string{it.Target, it.Queue, render.Count(it.Depth), sparkline(h.depth, sparkWidth),
				render.Rate(it.AddsPerSecond), sparkline(h.adds, sparkWidth), render.Rate(it.RetriesPerSecond),
				render.Quantile(it.QueueP99Seconds, it.QueueP99AtLeast), render.SLOVerdict(it.QueueWait), render.Quantile(it.WorkP99Seconds, it.WorkP99AtLeast), m.styles.statusCell(it.Status), dashed(it.Reason)})
		}
		if i == cur && m.selected != "" {
			line = m.styles.selected.Render(ansi.Strip(pad(line, m.width)))
		}
		lines = append(lines, line)
	}
	return lines
}

func dashed(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func (m *screenState) detailsView() []string {
	lines := []string{m.titleLine()}
	r, ok := m.selectedRow()
	if !ok {
		return append(lines, "", "this queue is not in the latest refresh")
	}
	it := r.item
	lines = append(lines, "", fmt.Sprintf("%s  %s  %s", it.Target, it.Queue, m.styles.statusCell(r.status())))
	if r.err != "" {
		return append(lines, "", r.err)
	}
	h := m.history[r.key]
	spark := min(len(h.depth), max(10, m.width-12))
	lines = append(lines, "",
		fmt.Sprintf("  depth %s   adds/s %s   retries/s %s   completions/s %s   reconcile errors/s %s",
			render.Count(it.Depth), render.Rate(it.AddsPerSecond), render.Rate(it.RetriesPerSecond),
			render.Rate(it.CompletionsPerSecond), render.Rate(it.ReconcileErrorsPerSecond)),
		fmt.Sprintf("  queue p50/p99 %s/%s (mean %s)   work p50/p99 %s/%s (mean %s)   unfinished %s   longest %s   workers %s   window %s",
			render.Quantile(it.QueueP50Seconds, it.QueueP50AtLeast), render.Quantile(it.QueueP99Seconds, it.QueueP99AtLeast),
			render.Seconds(it.QueueMeanSeconds), render.Quantile(it.WorkP50Seconds, it.WorkP50AtLeast),
			render.Quantile(it.WorkP99Seconds, it.WorkP99AtLeast), render.Seconds(it.WorkMeanSeconds), render.Seconds(it.UnfinishedWorkSeconds), render.Seconds(it.LongestRunningSeconds),
			render.Workers(it.ActiveWorkers, it.MaxWorkers), it.Window),
		"  "+queueWaitLine(it.QueueWait),
		"  depth   "+sparkline(h.depth, spark),
		"  adds/s  "+sparkline(h.adds, spark), "")
	fs := m.findingsOf(r)
	if len(fs) == 0 {
		return append(lines, "Findings: none")
	}
	lines = append(lines, "Findings:")
	for _, f := range fs {
		lines = append(lines, fmt.Sprintf("  %s %s %s: %s", strings.ToUpper(string(f.Severity)), f.Code, f.Title, f.Summary))
		for _, e := range f.Evidence {
			ev := fmt.Sprintf("      %s: %s", e.Name, e.Value)
			if e.Threshold != "" {
				ev += " (threshold " + e.Threshold + ")"
			}
			lines = append(lines, ev)
		}
	}
	return lines
}

func helpView() []string {
	return []string{"kubectl ctrldiag top: keys", "",
		"  q, Ctrl-C   quit",
		"  s           cycle the sort: status (worst first), depth, adds/s, name",
		"  /           filter by a text in TARGET or QUEUE (Enter keeps it, Esc clears it)",
		"  ↑ ↓, k j    move the selection",
		"  Enter       the details of the selected queue: its figures and findings",
		"  Esc         back; clears the filter in the table",
		"  ?           this help",
		"",
		"Sparklines: depth and adds/s of each queue at every refresh of this session, scaled to their highest.",
		"Rates are over the time since the refresh before; TOP FINDING is the finding behind STATUS.",
		"WAIT SLO: the queue-wait objective (p99 <= --slo queue-wait-p99, 1s) over that window: breaks, holds,",
		"unknown, or not-judged when the window has too few waits for a p99 (100)."}
}
