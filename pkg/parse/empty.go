package parse

import "fmt"

// EmptyPageError stops a page that holds no sample line at all: nothing, blank lines, or only
// comments (HELP and TYPE lines without their samples). Such a page is not a controller's
// metrics; read as one, it would say the target "serves metrics but no workqueue_* series"
// and send the user looking for queues rather than at the port and path.
//
// A page with samples, none of them of the families asked for, is no EmptyPageError: that is
// a page without the wanted families, which the caller judges.
type EmptyPageError struct {
	// Comments says the page held comment lines.
	Comments bool
}

// emptyAdvice says what to check, live or saved.
const emptyAdvice = "is this the metrics port? is the path /metrics? " +
	"(a page read with --from-file may have been saved empty or cut short)"

func (e *EmptyPageError) Error() string {
	if e.Comments {
		return fmt.Sprintf("the page holds only comments, no samples: %s", emptyAdvice)
	}
	return fmt.Sprintf("the page is empty: %s", emptyAdvice)
}

// noteContent records whether line, one line of the page as read, is a sample line or a
// comment; blank lines are neither. Only lines before the first sample need it.
func (f *filter) noteContent(line []byte) {
	for _, c := range line {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case '#':
			f.comments = true
		default:
			f.samples = true
		}
		return
	}
}
