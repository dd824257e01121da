package render

import (
	"io"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// ReportMarkdown writes the report as GitHub-flavoured Markdown, for tickets and pull requests.
func ReportMarkdown(w io.Writer, r view.Report) error {
	r = printable.Value(r)
	ew := &errWriter{w: w}
	ew.printf("# kubectl ctrldiag report\n\n")
	ew.printf("%s, window %s, %s.\n\n**Verdict:** %s (%s).\n",
		md(r.Scope), md(reportWindow(r)), r.GeneratedAt.Format("2006-01-02T15:04:05Z"), md(r.Summary.Verdict), targetsRead(r.Summary))
	writeMarkdownSummary(ew, r.Summary)
	if l := partialLine(r); l != "" {
		ew.printf("\n**%s**\n", md(l))
	}
	if r.ResolutionNote != "" {
		ew.printf("\n**Source resolution:** %s\n", md(r.ResolutionNote))
	}
	for _, n := range r.Notes {
		ew.printf("\n**Note:** %s\n", md(n))
	}
	for _, s := range reportSections(r) {
		writeMarkdownSection(ew, s, "## ")
	}
	ew.printf("\n## 7. Findings\n\n")
	if len(r.Findings) == 0 {
		ew.printf("No findings: every controller read keeps up.\n")
	}
	for _, f := range r.Findings {
		ew.printf("### %s %s %s: %s\n\n", md(strings.ToUpper(string(f.Severity))), md(f.Code), mdCode(f.Check), md(f.Title))
		ew.printf("Target %s%s. %s\n\n", mdCode(f.Target), mdQueue(f.Queue), md(f.Summary))
		for _, e := range f.Evidence {
			ew.printf("- %s\n", md(evidence(e)))
		}
		ew.printf("\n**Why:** %s\n\n**Fix:** %s\n\n", md(f.Explanation), md(f.Recommendation))
	}
	writeSuppressed(ew, r, "\n## Suppressed\n\n", "- ", md)
	if len(r.Errors) > 0 {
		ew.printf("\n## %s\n\n", errorsTitle(r))
		for _, e := range r.Errors {
			if j := judged(e); j != "" {
				ew.printf("- %s (%s): %s\n", mdCode(e.Target), md(j), md(e.Error))
				continue
			}
			ew.printf("- %s: %s\n", mdCode(e.Target), md(e.Error))
		}
	}
	return ew.err
}

func writeMarkdownSection(ew *errWriter, s section, level string) {
	ew.printf("\n%s%s\n\n", level, md(s.Title))
	if len(s.Rows) > 0 {
		ew.printf("| %s |\n|%s\n", strings.Join(s.Header, " | "), strings.Repeat(" --- |", len(s.Header)))
		for _, r := range s.Rows {
			cells := make([]string, len(r))
			for i, c := range r {
				cells[i] = md(c)
			}
			ew.printf("| %s |\n", strings.Join(cells, " | "))
		}
		ew.printf("\n")
	}
	if s.Note != "" {
		ew.printf("%s\n", md(s.Note))
	}
	for _, sub := range s.Sub {
		writeMarkdownSection(ew, sub, "### ")
	}
}

func mdQueue(q string) string {
	if q == "" {
		return ""
	}
	return ", queue " + mdCode(q)
}
