package report

import (
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/term"
)

// progress tells a person at a terminal that the report waits for the second sample; it
// writes nothing when stderr is not a terminal.
type progress struct {
	w   io.Writer
	tty bool
}

func newProgress(w io.Writer, targets int, interval time.Duration) *progress {
	p := &progress{w: w}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.tty = true
		fmt.Fprintf(w, "\rReading %d targets twice, %s apart...", targets, interval)
	}
	return p
}

func (p *progress) done() {
	if p.tty {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
