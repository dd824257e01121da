package render

import (
	"fmt"
	"io"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/printer"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// Write renders v in format, the value of a command's -o flag: "json" and "yaml" for any v
// (keyed by its json tags, so both give the same data); "" (the default; "table" too for the
// lists), "wide", "text", "markdown" and "html" for the views that have them: the queue
// table, the target table and the report (whose "wide" is the text with every column and
// each finding's why); "junit" and "github" (workflow commands) for the report, in CI; kubectl's forms
// (jsonpath=..., go-template=..., custom-columns=..., name) as Prepare returned them.
func Write(w io.Writer, format string, v any) error {
	return write(w, format, v, ListOptions{})
}

// ListOptions are kubectl's options of a list's output: --no-headers and --sort-by.
type ListOptions struct {
	// NoHeaders leaves the header line out of a table (and of -o custom-columns).
	NoHeaders bool
	// SortBy orders the items by a JSONPath into each (see SortBy); "" keeps their order.
	SortBy string
	// Ranks are the text fields that sort by rank rather than by their bytes, by path
	// (".status": worst first).
	Ranks map[string]func(string) int
	// Width is the width a table is laid out in (0: DefaultWidth); -o wide is not held to it.
	Width int
}

// WriteList is Write of a list (queues, targets) with kubectl's list options; of a report,
// with the width of its text.
func WriteList(w io.Writer, format string, v any, o ListOptions) error {
	if o.SortBy != "" {
		sorted, err := printer.SortBy(v, o.SortBy, o.Ranks)
		if err != nil {
			return err
		}
		v = sorted
	}
	return write(w, format, v, o)
}

func write(w io.Writer, format string, v any, o ListOptions) error {
	if printer.Data(format) {
		return printer.Write(w, format, v, o.NoHeaders)
	}
	switch v := v.(type) {
	case view.QueueList:
		if format == "" || format == "table" || format == "wide" {
			return queueTable(w, v, format == "wide", o)
		}
	case view.TargetList:
		if format == "" || format == "table" || format == "wide" {
			return targetTable(w, v, format == "wide", o.NoHeaders)
		}
	case view.Diff:
		switch format {
		case "", "text":
			return DiffText(w, v)
		case "markdown":
			return DiffMarkdown(w, v)
		}
	case view.Report:
		switch format {
		case "", "text":
			return reportText(w, v, textLayout{width: o.Width})
		case "wide":
			return reportText(w, v, textLayout{wide: true})
		case "markdown":
			return ReportMarkdown(w, v)
		case "html":
			return ReportHTML(w, v)
		case "junit":
			return ReportJUnit(w, v)
		case "github":
			return ReportGitHub(w, v)
		}
	}
	return fmt.Errorf("render: no %q output for %T", format, v)
}
