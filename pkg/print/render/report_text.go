package render

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// ReportText writes the report for a terminal: a header, the summary (the controllers in
// trouble, worst first, each with what is wrong, the cause and the change to make), the data
// sections as kubectl-style tables, then the findings, ranked by impact, each with its
// evidence and the fix, all in DefaultWidth columns (see reportText).
func ReportText(w io.Writer, r view.Report) error {
	return reportText(w, r, textLayout{})
}

// textLayout is how the text report is laid out.
type textLayout struct {
	// wide keeps every column and each target's whole name, and gives each finding its why
	// and its whole fix (-o wide); else the report keeps to width.
	wide bool
	// width is the width the report keeps to (0: DefaultWidth): the tables group their rows
	// by target and leave out the columns that do not fit (section.Drop), each finding's fix
	// is one line, and the why is kubectl ctrldiag explain's.
	width int
}

func reportText(w io.Writer, r view.Report, l textLayout) error {
	r = printable.Value(r)
	width := widthOr(l.width)
	ew := &errWriter{w: w}
	ew.printf("%s", wrap(fmt.Sprintf("ctrldiag report: %s, window %s, %s", r.Scope, reportWindow(r), r.GeneratedAt.Format("2006-01-02T15:04:05Z")), "", width))
	// The count of targets read wraps as one word: "(4 of 5 targets read)" is never split.
	read := strings.ReplaceAll("("+targetsRead(r.Summary)+")", " ", "\x00")
	ew.printf("%s", strings.ReplaceAll(wrap("Verdict: "+r.Summary.Verdict+" "+read, "", summaryWidth), "\x00", " "))
	writeTextSummary(ew, r.Summary)
	if p := partialLine(r); p != "" {
		ew.printf("%s", wrap(p, "", width))
	}
	for _, n := range r.Notes {
		ew.printf("%s", wrap("Note: "+n, "", width))
	}
	for _, n := range r.WindowNotes {
		ew.printf("%s", wrap("Window: "+n, "", width))
	}
	if r.ResolutionNote != "" {
		ew.printf("%s", wrap("Source resolution: "+r.ResolutionNote, "", width))
	}
	t := textTables{width: width, wide: l.wide}
	wasQuiet := false
	for _, s := range textSections(r) {
		quiet := !l.wide && s.quiet()
		if !quiet || !wasQuiet {
			ew.printf("\n")
		}
		wasQuiet = quiet
		t.write(ew, s, heading(s.Title))
	}
	if l.wide {
		ew.printf("\n7. FINDINGS\n")
	} else {
		ew.printf("\n7. FINDINGS (why, and the whole fix: kubectl ctrldiag explain CODE)\n")
	}
	if len(r.Findings) == 0 {
		ew.printf("No findings: every controller read keeps up.\n")
	}
	for i, f := range textFindings(r.Findings, l.wide) {
		title := fmt.Sprintf("[%s] %s %s: %s\n", strings.ToUpper(string(f.Severity)), f.Code, f.Check, f.Title)
		if f.under != "" {
			// A symptom of the queue (target) the finding above shows whole: its title and
			// summary; its evidence and fix are -o wide's.
			ew.printf("%s%s", title, wrap(f.Summary+" (same "+f.of()+" as "+f.under+")", "  ", width))
			t.narrowed = true
			continue
		}
		if i > 0 {
			ew.printf("\n")
		}
		ew.printf("%s", title)
		writeTargetLines(ew, f.Finding, width)
		ew.printf("%s", wrap(f.Summary, "  ", width))
		for _, e := range f.Evidence {
			ew.printf("%s", wrap("- "+evidence(e), "  ", width))
		}
		if l.wide {
			ew.printf("%s", wrap("why: "+f.Explanation, "  ", width))
			ew.printf("%s", wrap("fix: "+f.Recommendation, "  ", width))
			continue
		}
		ew.printf("%s\n", fit("  fix: "+f.Recommendation, width))
	}
	writeSuppressed(ew, r, "\nSUPPRESSED\n", "  ", printable.String)
	if len(r.Errors) > 0 {
		ew.printf("\n%s\n", heading(errorsTitle(r)))
		for _, e := range r.Errors {
			if j := judged(e); j != "" {
				ew.printf("%s", wrap(fmt.Sprintf("%s (%s): %s", e.Target, j, e.Error), "  ", width))
				continue
			}
			ew.printf("%s", wrap(e.Target+": "+e.Error, "  ", width))
		}
	}
	if t.narrowed {
		ew.printf("\n%s", wrap("-o wide: every column and row, each finding's evidence and why.", "", width))
	}
	return ew.err
}

// textFinding is a finding as the text report lists it.
type textFinding struct {
	findings.Finding
	// under is the code of the finding on the same queue (target) shown whole right above,
	// when this one is a symptom listed by its title and summary alone; "" when it is whole.
	under string
}

// of is what the finding shares with the one it is under: its queue, or its whole target.
func (f textFinding) of() string {
	if f.Queue == "" {
		return "target"
	}
	return "queue"
}

// textFindings are the findings in the order the text report lists them: in wide, the
// report's; else each queue's (target's) first finding whole, in the report's order, and the
// symptoms of the same queue ranked below it (no causes: those stay whole) right under it.
func textFindings(fs []findings.Finding, wide bool) []textFinding {
	out := make([]textFinding, 0, len(fs))
	if wide {
		for _, f := range fs {
			out = append(out, textFinding{Finding: f})
		}
		return out
	}
	under := make([]bool, len(fs))
	for i, f := range fs {
		if under[i] {
			continue
		}
		out = append(out, textFinding{Finding: f})
		for j := i + 1; j < len(fs); j++ {
			g := fs[j]
			if !under[j] && g.Target == f.Target && g.Queue == f.Queue && !findings.IsCause(g.Check) {
				under[j] = true
				out = append(out, textFinding{Finding: g, under: f.Code})
			}
		}
	}
	return out
}

// textTables writes the report's sections as text tables.
type textTables struct {
	width int
	wide  bool
	// narrowed is set once a table left out a column that did not fit.
	narrowed bool
}

// write writes a section under its title: in wide, each table as kubectl lays it out, with
// its notes and definitions; else fitted to the width, the title and its Quiet line alone when
// there is nothing to note, or the notable rows, a table of targets (of pods) as one group of
// rows per target (namespace) under its name (byFirst), and a table that still does not fit as
// records.
func (t *textTables) write(ew *errWriter, s section, title string) {
	note := s.Note
	switch {
	case t.wide || s.Quiet == "" || s.notable() > 0:
		ew.printf("%s\n", title)
	case s.quiet():
		ew.printf("%s", wrap(title+": "+s.Quiet, "", t.width))
		if note != "" {
			ew.printf("%s", wrap(note, "", t.width))
		}
		return
	default: // nothing to note here, but in a table under it
		ew.printf("%s\n%s", title, wrap(upperFirst(s.Quiet)+".", "", t.width))
		s.Rows, s.Notable = nil, nil
	}
	if t.wide {
		note = strings.TrimSpace(note + " " + s.Define)
	} else if hidden := len(s.Rows) - s.notable(); hidden > 0 && s.notable() > 0 {
		s = s.only()
		note = strings.TrimSpace(fmt.Sprintf("%d more with nothing to note: -o wide. ", hidden) + note)
	}
	switch {
	case len(s.Rows) == 0:
	case t.wide:
		tw := newColumns(ew)
		row(tw, s.Header)
		for _, r := range s.Rows {
			row(tw, r)
		}
		if err := tw.Flush(); err != nil && ew.err == nil {
			ew.err = err
		}
	case s.Header[0] == "TARGET" || s.Header[0] == "NAMESPACE":
		t.byFirst(ew, s)
	default:
		header, rows := fitTable(s.Header, s.Rows, t.width, s.Drop)
		t.narrowed = t.narrowed || len(header) < len(s.Header)
		cut := cutLast(header, rows, t.width, s.Cut)
		if tableWidth(header, cut) > t.width {
			ew.printf("%s", records("", header, rows, t.width)) // whole: records wrap
			break
		}
		ew.printf("%s", padded(header, cut))
	}
	if note != "" {
		ew.printf("%s", wrap(note, "", t.width))
	}
	for _, sub := range s.Sub {
		if !t.wide && sub.quiet() {
			t.write(ew, sub, sub.Title)
			continue
		}
		ew.printf("\n")
		t.write(ew, sub, sub.Title)
	}
}

// byFirst writes a table whose first column is TARGET or NAMESPACE as its header, then each
// target's (namespace's) name, in the order the rows first name it, above its rows, indented:
// the other columns get the width that two long names side by side would take. Rows still
// too wide are records.
func (t *textTables) byFirst(ew *errWriter, s section) {
	const indent = "  "
	rest := make([][]string, len(s.Rows))
	for i, r := range s.Rows {
		rest[i] = r[1:]
	}
	header, rows := fitTable(s.Header[1:], rest, t.width-len(indent), s.Drop)
	t.narrowed = t.narrowed || len(header) < len(s.Header)-1
	cut := cutLast(header, rows, t.width-len(indent), s.Cut)
	tooWide := tableWidth(header, cut) > t.width-len(indent)
	if !tooWide {
		rows = cut // records wrap the whole of each cell
	}
	widths := columnWidths(header, rows)
	var order []string
	groups := map[string][][]string{}
	for i, r := range s.Rows {
		if _, ok := groups[r[0]]; !ok {
			order = append(order, r[0])
		}
		groups[r[0]] = append(groups[r[0]], rows[i])
	}
	if !tooWide {
		ew.printf("%s", padLine(indent, header, widths))
	}
	for _, target := range order {
		ew.printf("%s\n", cellBreaks.Replace(target))
		if tooWide {
			ew.printf("%s", records(indent, header, groups[target], t.width))
			continue
		}
		for _, r := range groups[target] {
			ew.printf("%s", padLine(indent, r, widths))
		}
	}
}

// writeTargetLines writes "target: T  queue: Q" under a finding's title, or, too long for
// width, the queue on a line of its own, and the target too when even it does not fit.
func writeTargetLines(ew *errWriter, f findings.Finding, width int) {
	if line := "  target: " + f.Target + queueSuffix(f); utf8.RuneCountInString(line) <= width {
		ew.printf("%s\n", line)
		return
	}
	if utf8.RuneCountInString("  target: "+f.Target) <= width {
		ew.printf("  target: %s\n", f.Target)
	} else {
		ew.printf("  target:\n    %s\n", f.Target)
	}
	if f.Queue != "" {
		ew.printf("  queue: %s\n", f.Queue)
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

// wrap breaks text into lines of at most width columns, the first starting with indent and
// the others two blanks further in.
func wrap(text, indent string, width int) string {
	return printable.WrapLines(text, indent, indent+"  ", width)
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
