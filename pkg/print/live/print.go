package live

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/render"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// Print is how the stream prints each frame's queue list: Format is an -o of queues as
// printer.Prepare returned it ("" or "table" the table, "wide", "json", "yaml", kubectl's
// forms), List its --no-headers and --sort-by.
type Print struct {
	Format string
	List   render.ListOptions
}

// table reports whether p prints a table (the queue table or custom columns): each one under
// a line with the frame's time and window, unless --no-headers, a blank line between them.
func (p Print) table() bool {
	return p.Format == "" || p.Format == "table" || p.Format == "wide" || strings.HasPrefix(p.Format, "custom-columns=")
}

// printFrame writes f's queue list in p's form, n frames having been written before it: a
// table under its time line; a YAML document after "---" but the first; a JSON document, a
// name per line or a template's output as they are, one after the other, as kubectl get -w
// prints them. The list names the frame's time.
func printFrame(out io.Writer, f *view.Frame, n int, p Print) error {
	l := printed(f)
	switch {
	case p.table():
		if n > 0 {
			if _, err := io.WriteString(out, "\n"); err != nil {
				return err
			}
		}
		if !p.List.NoHeaders {
			if _, err := fmt.Fprintf(out, "# %s  window: %s\n", f.Time.UTC().Format(time.RFC3339), f.Window()); err != nil {
				return err
			}
		}
	case p.Format == "yaml" && n > 0:
		if _, err := io.WriteString(out, "---\n"); err != nil {
			return err
		}
	}
	return render.WriteList(out, p.Format, l, p.List)
}

// printed is f's queue list as stdout shows it: its time set, the target errors, which quote
// servers, with credentials masked (redact). The outputs escape text from outside themselves.
func printed(f *view.Frame) view.QueueList {
	l := f.List
	l.Time = f.Time.UTC()
	l.Errors = make([]view.TargetError, 0, len(f.List.Errors))
	for _, e := range f.List.Errors {
		e.Error = redact.String(e.Error)
		l.Errors = append(l.Errors, e)
	}
	if len(l.Errors) == 0 {
		l.Errors = nil
	}
	return l
}
