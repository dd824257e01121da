package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// diffFigure formats one figure of a queue as the queues table does.
func diffFigure(name string, v *float64) string {
	switch {
	case strings.HasSuffix(name, "/s"):
		return Rate(v)
	case name == "depth" || name == "reconcile errors":
		return Count(v)
	}
	return Seconds(v)
}

// diffRows are the rows of the comparison: one per queue figure that changed, one per kind
// of objects, then the findings that appeared and resolved.
func diffRows(d view.Diff) (queues, objects, appeared, resolved [][]string) {
	for _, q := range d.Queues {
		for _, f := range q.Figures {
			queues = append(queues, []string{q.Controller, q.Queue, strings.ToUpper(q.Change), f.Name,
				diffFigure(f.Name, f.Before), diffFigure(f.Name, f.After)})
		}
	}
	for _, o := range d.Objects {
		objects = append(objects, []string{o.Kind, fmt.Sprint(o.FailedBefore), fmt.Sprint(o.FailedAfter),
			fmt.Sprint(o.BehindSpecBefore), fmt.Sprint(o.BehindSpecAfter)})
	}
	fr := func(fs []findings.Finding) [][]string {
		var rows [][]string
		for _, f := range fs {
			rows = append(rows, []string{strings.ToUpper(string(f.Severity)), f.Code, f.Target, dash(f.Queue), f.Title})
		}
		return rows
	}
	return queues, objects, fr(d.Appeared), fr(d.Resolved)
}

var (
	diffQueueHeader   = []string{"CONTROLLER", "QUEUE", "CHANGE", "FIGURE", "BEFORE", "AFTER"}
	diffObjectHeader  = []string{"KIND", "FAILED BEFORE", "FAILED AFTER", "BEHIND SPEC BEFORE", "BEHIND SPEC AFTER"}
	diffFindingHeader = []string{"SEVERITY", "CODE", "TARGET", "QUEUE", "TITLE"}
)

// DiffText writes the comparison as kubectl-style tables.
func DiffText(w io.Writer, d view.Diff) error {
	d = printable.Value(d)
	queues, objects, appeared, resolved := diffRows(d)
	slis, kinds := diffSLIRows(d)
	fmt.Fprintf(w, "BEFORE  %s  %s  window %s  %s\n", d.Before.GeneratedAt.Format("2006-01-02T15:04:05Z07:00"), d.Before.Source, d.Before.Window, d.Before.Summary.Verdict)
	fmt.Fprintf(w, "AFTER   %s  %s  window %s  %s\n", d.After.GeneratedAt.Format("2006-01-02T15:04:05Z07:00"), d.After.Source, d.After.Window, d.After.Summary.Verdict)
	sections := []struct {
		title  string
		header []string
		rows   [][]string
		none   string
	}{
		{"QUEUES", diffQueueHeader, queues, "no queue figure changed"},
		{"OBJECTS", diffObjectHeader, objects, "no change in the objects the controllers reconcile"},
		{"SERVICE LEVELS", diffSLIHeader, slis, orElse(d.SLINote, "no service level changed")},
		{"SPEC TO OBSERVED BY KIND", diffKindHeader, kinds, "no change in how fast the controllers act on spec changes"},
		{"FINDINGS APPEARED", diffFindingHeader, appeared, "none"},
		{"FINDINGS RESOLVED", diffFindingHeader, resolved, "none"},
	}
	for _, s := range sections {
		fmt.Fprintf(w, "\n%s\n", s.title)
		if len(s.rows) == 0 {
			fmt.Fprintf(w, "%s\n", s.none)
			continue
		}
		tw := newColumns(w)
		row(tw, s.header)
		for _, r := range s.rows {
			row(tw, r)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}

// DiffMarkdown writes the comparison as Markdown tables, for a pull request or a ticket.
func DiffMarkdown(w io.Writer, d view.Diff) error {
	d = printable.Value(d)
	queues, objects, appeared, resolved := diffRows(d)
	slis, kinds := diffSLIRows(d)
	fmt.Fprintf(w, "# Controller diagnosis: before and after\n\n")
	fmt.Fprintf(w, "| | taken | source | window | verdict |\n|---|---|---|---|---|\n")
	for _, s := range []struct {
		name string
		side view.Side
	}{{"before", d.Before}, {"after", d.After}} {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", s.name, s.side.GeneratedAt.Format("2006-01-02T15:04:05Z07:00"),
			md(s.side.Source), md(s.side.Window), md(s.side.Summary.Verdict))
	}
	for _, s := range []struct {
		title  string
		header []string
		rows   [][]string
	}{
		{"Queues", diffQueueHeader, queues},
		{"Objects", diffObjectHeader, objects},
		{"Service levels", diffSLIHeader, slis},
		{"Spec to observed by kind", diffKindHeader, kinds},
		{"Findings appeared", diffFindingHeader, appeared},
		{"Findings resolved", diffFindingHeader, resolved},
	} {
		fmt.Fprintf(w, "\n## %s\n\n", s.title)
		if len(s.rows) == 0 && s.title == "Service levels" && d.SLINote != "" {
			fmt.Fprintf(w, "%s.\n", md(d.SLINote))
			continue
		}
		if len(s.rows) == 0 {
			fmt.Fprintf(w, "None.\n")
			continue
		}
		fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(s.header, " | "), strings.Repeat("---|", len(s.header)))
		for _, r := range s.rows {
			cells := make([]string, len(r))
			for i, c := range r {
				cells[i] = md(c)
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
		}
	}
	return nil
}
