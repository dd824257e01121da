package live

import (
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// shown is f as the screen and the stream may print it: text from outside escaped
// (printable), and the warnings and target errors, which quote servers, with credentials
// masked (redact). f itself is left as it is.
func shown(f *view.Frame) *view.Frame {
	f = printable.Value(f)
	c := *f
	c.Warnings = nil
	for _, w := range f.Warnings {
		c.Warnings = append(c.Warnings, redact.String(w))
	}
	c.List.Errors = nil
	for _, e := range f.List.Errors {
		e.Error = redact.String(e.Error)
		c.List.Errors = append(c.List.Errors, e)
	}
	return &c
}
