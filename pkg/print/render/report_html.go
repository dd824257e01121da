package render

import (
	_ "embed"
	"html/template"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

//go:embed report_html.tmpl
var reportHTMLTemplate string

//go:embed report_html.css
var reportHTMLStyle string

// reportHTML is the parsed page template, parsed on first use rather than at every start.
var reportHTML = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"px":             px,
		"plus":           func(a, b float64) float64 { return a + b },
		"minus":          func(a, b float64) float64 { return a - b },
		"upper":          strings.ToUpper,
		"pathParts":      pathParts,
		"judged":         judged,
		"explainCode":    explainCode,
		"suppressedLine": func(s *view.Suppressions) string { return suppressedLine(*s) },
	}).Parse(reportHTMLTemplate))
})

// htmlPage is what the html template renders: the report, its sections as tables, and the
// charts laid out in Go.
type htmlPage struct {
	R         view.Report
	Generated string
	Verdict   string // the verdict banner's class: critical, warning or ok
	Window    string // the report's window, and the other windows some targets were judged over
	Style     template.CSS
	Sections  []htmlSection
	Findings  []htmlFinding
	// ErrorsTitle heads the list of target errors; ErrorsNav is its link in the navigation.
	ErrorsTitle string
	ErrorsNav   string
	// Partial says the server answered partially, under the verdict ("" when whole).
	Partial string
	// Troubles are the controllers in trouble the summary lists, MoreTroubles the line that
	// counts the rest ("" when all are listed).
	Troubles     []view.Trouble
	MoreTroubles string
}

// htmlSection is one numbered section; the backlog and event sections carry charts.
type htmlSection struct {
	Table     section
	ID        string
	Depth     *depthChart
	Latency   []latencyRow
	ChartNote string
}

// htmlFinding is one finding card.
type htmlFinding struct {
	findings.Finding
	Class string
}

// ReportHTML writes the report as one self-contained HTML page: inline CSS and inline SVG
// charts (depth per queue, queue and work latency distributions), no script, nothing fetched.
func ReportHTML(w io.Writer, r view.Report) error {
	r = printable.Value(r)
	p := htmlPage{R: r, Generated: r.GeneratedAt.Format("2006-01-02 15:04:05 UTC"), Verdict: "ok", Style: template.CSS(reportHTMLStyle),
		Window: reportWindow(r), ErrorsTitle: errorsTitle(r), ErrorsNav: "Unread targets", Partial: partialLine(r)}
	if partlyRead(r) {
		p.ErrorsNav = "Unread or partly read targets"
	}
	switch {
	case r.Summary.Critical > 0 || r.Summary.Read == 0:
		p.Verdict = "critical"
	case r.Summary.Warning > 0:
		p.Verdict = "warning"
	}
	shown, more := shownTroubles(r.Summary)
	p.Troubles, p.MoreTroubles = shown, moreTroubles(more)
	for _, s := range reportSections(r) {
		hs := htmlSection{Table: s, ID: s.ID}
		switch hs.ID {
		case "backlog":
			hs.Depth, hs.ChartNote = newDepthChart(r.Backlog)
		case "events":
			hs.Latency, hs.ChartNote = newLatencyRows(r)
		}
		p.Sections = append(p.Sections, hs)
	}
	for _, f := range r.Findings {
		p.Findings = append(p.Findings, htmlFinding{Finding: f, Class: string(f.Severity)})
	}
	ew := &errWriter{w: w}
	if err := reportHTML().Execute(ew, p); err != nil {
		return err
	}
	return ew.err
}

// px formats an SVG coordinate with at most one decimal.
func px(v float64) string {
	return strconv.FormatFloat(float64(int64(v*10+0.5))/10, 'f', -1, 64)
}

// pathParts splits a long table cell such as "namespace/pod:port" or "component/resource" after
// each slash, so that the page may break the line there and nowhere else (not at hyphens).
// Cells that are short or read as prose ("1s / 2s") stay whole.
func pathParts(cell string) []string {
	if len(cell) <= 24 || strings.Contains(cell, " ") {
		return []string{cell}
	}
	return strings.SplitAfter(cell, "/")
}
