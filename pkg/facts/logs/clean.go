package logs

import (
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
)

// clean makes a message from the log safe to print and keep: credentials masked, blanks
// folded, control characters escaped, at most redact.ExcerptBytes.
func clean(s string) string { return redact.ExcerptString(s) }

// bounded is a name from the log (a controller, an object, a function) escaped and cut to
// maxName bytes.
func bounded(s string) string {
	if len(s) > maxName {
		s = s[:maxName]
	}
	return printable.String(redact.String(s))
}
