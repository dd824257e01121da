package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// ReportText writes the report for a terminal: a header, the summary (the controllers in
// trouble, worst first, each with what is wrong, the cause and the change to make, in 80
// columns), the data sections as kubectl-style tables, then the findings, ranked by impact,
// each with evidence and the fix.
func ReportText(w io.Writer, r view.Report) error {
	r = printable.Value(r)
	ew := &errWriter{w: w}
	ew.printf("kubectl ctrldiag report: %s, window %s, %s\n", r.Scope, reportWindow(r), r.GeneratedAt.Format("2006-01-02T15:04:05Z"))
	// The count of targets read wraps as one word: "(4 of 5 targets read)" is never split.
	read := strings.ReplaceAll("("+targetsRead(r.Summary)+")", " ", "\x00")
	ew.printf("%s", strings.ReplaceAll(wrap("Verdict: "+r.Summary.Verdict+" "+read, "", 80), "\x00", " "))
	writeTextSummary(ew, r.Summary)
	if l := partialLine(r); l != "" {
		ew.printf("%s", wrap(l, "", 96))
	}
	for _, n := range r.Notes {
		ew.printf("%s", wrap("Note: "+n, "", 80))
	}
	for _, n := range r.WindowNotes {
		ew.printf("%s", wrap("Window: "+n, "", 96))
	}
	if r.ResolutionNote != "" {
		ew.printf("%s", wrap("Source resolution: "+r.ResolutionNote, "", 96))
	}
	for _, s := range reportSections(r) {
		writeTextSection(ew, s, "\n"+heading(s.Title)+"\n")
	}
	ew.printf("\n7. FINDINGS\n")
	if len(r.Findings) == 0 {
		ew.printf("No findings: every controller read keeps up.\n")
	}
	for _, f := range r.Findings {
		ew.printf("\n[%s] %s %s: %s\n", strings.ToUpper(string(f.Severity)), f.Code, f.Check, f.Title)
		ew.printf("  target: %s%s\n", f.Target, queueSuffix(f))
		ew.printf("  %s\n", f.Summary)
		for _, e := range f.Evidence {
			ew.printf("  - %s\n", evidence(e))
		}
		ew.printf("%s", wrap("why: "+f.Explanation, "  ", 96))
		ew.printf("%s", wrap("fix: "+f.Recommendation, "  ", 96))
	}
	writeSuppressed(ew, r, "\nSUPPRESSED\n", "  ", printable.String)
	if len(r.Errors) > 0 {
		ew.printf("\n%s\n", heading(errorsTitle(r)))
		for _, e := range r.Errors {
			if j := judged(e); j != "" {
				ew.printf("  %s (%s): %s\n", e.Target, j, e.Error)
				continue
			}
			ew.printf("  %s: %s\n", e.Target, e.Error)
		}
	}
	return ew.err
}

func writeTextSection(ew *errWriter, s section, title string) {
	ew.printf("%s", title)
	if len(s.Rows) > 0 {
		tw := newColumns(ew)
		row(tw, s.Header)
		for _, r := range s.Rows {
			row(tw, r)
		}
		if err := tw.Flush(); err != nil && ew.err == nil {
			ew.err = err
		}
	}
	if s.Note != "" {
		ew.printf("%s", wrap(s.Note, "", 96))
	}
	for _, sub := range s.Sub {
		writeTextSection(ew, sub, "\n"+sub.Title+"\n")
	}
}

func queueSuffix(f findings.Finding) string {
	if f.Queue == "" {
		return ""
	}
	return "  queue: " + f.Queue
}

func evidence(e findings.Evidence) string {
	if e.Threshold == "" {
		return fmt.Sprintf("%s: %s", e.Name, e.Value)
	}
	return fmt.Sprintf("%s: %s (threshold %s)", e.Name, e.Value, e.Threshold)
}

// wrap breaks text into lines of at most width columns, each starting with indent.
func wrap(text, indent string, width int) string {
	var b strings.Builder
	line := indent
	for _, word := range strings.Fields(text) {
		if len(line) > len(indent) && len(line)+1+len(word) > width {
			b.WriteString(line + "\n")
			line = indent + "  "
		}
		if len(line) > len(indent) && !strings.HasSuffix(line, " ") {
			line += " "
		}
		line += word
	}
	if strings.TrimSpace(line) != "" {
		b.WriteString(line + "\n")
	}
	return b.String()
}

// errWriter keeps the first write error so that renderers can print freely and report once.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

func (e *errWriter) printf(format string, a ...any) { fmt.Fprintf(e, format, a...) }

// heading is a section title as the text report heads it: its name in capitals, what follows
// in parentheses (thresholds, units, field names) as written, so "p99" and "1s" stay themselves.
func heading(title string) string {
	name, rest, _ := strings.Cut(title, " (")
	if rest != "" {
		rest = " (" + rest
	}
	return strings.ToUpper(name) + rest
}
