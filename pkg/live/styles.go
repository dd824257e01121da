package live

import (
	"github.com/charmbracelet/lipgloss"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/health"
)

// styles are the view's looks, made for one renderer: bold, underline and reverse always (the
// selection must show), the STATUS colours only with colour (a terminal that has colours, and
// no NO_COLOR).
type styles struct {
	title, header, selected, dim lipgloss.Style
	status                       map[string]lipgloss.Style
}

func newStyles(r *lipgloss.Renderer, colour bool) styles {
	red := r.NewStyle().Foreground(lipgloss.Color("1")).Bold(true)
	yellow := r.NewStyle().Foreground(lipgloss.Color("3"))
	green := r.NewStyle().Foreground(lipgloss.Color("2"))
	if !colour {
		red, yellow, green = r.NewStyle().Bold(true), r.NewStyle(), r.NewStyle()
	}
	return styles{
		title:    r.NewStyle().Bold(true),
		header:   r.NewStyle().Bold(true).Underline(true),
		selected: r.NewStyle().Reverse(true),
		dim:      r.NewStyle().Faint(true),
		status: map[string]lipgloss.Style{
			string(health.StatusError): red, string(health.StatusStuck): red, string(health.StatusFailing): red,
			string(health.StatusBacklog): yellow, string(health.StatusSaturated): yellow, string(health.StatusSlow): yellow, string(health.StatusRetrying): yellow,
			string(health.StatusGone): yellow, string(health.StatusOK): green,
		},
	}
}

// statusCell is the STATUS text in its colour.
func (s styles) statusCell(text string) string {
	if st, ok := s.status[text]; ok {
		return st.Render(text)
	}
	return text
}
