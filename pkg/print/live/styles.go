package live

import (
	"charm.land/lipgloss/v2"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// styles are the view's looks: bold, underline and reverse always (the selection must show),
// the STATUS colours only with colour (no NO_COLOR).
type styles struct {
	title, header, selected, dim lipgloss.Style
	status                       map[string]lipgloss.Style
}

func newStyles(colour bool) styles {
	red := lipgloss.NewStyle().Foreground(lipgloss.Red).Bold(true)
	yellow := lipgloss.NewStyle().Foreground(lipgloss.Yellow)
	green := lipgloss.NewStyle().Foreground(lipgloss.Green)
	if !colour {
		red, yellow, green = lipgloss.NewStyle().Bold(true), lipgloss.NewStyle(), lipgloss.NewStyle()
	}
	return styles{
		title:    lipgloss.NewStyle().Bold(true),
		header:   lipgloss.NewStyle().Bold(true).Underline(true),
		selected: lipgloss.NewStyle().Reverse(true),
		dim:      lipgloss.NewStyle().Faint(true),
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
