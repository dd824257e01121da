package live

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// Next yields the next frame; it fails only when the targets cannot be found at all.
type Next func(ctx context.Context) (*view.Frame, error)

// Loop says how often to refresh and when to stop.
type Loop struct {
	// Every is the time from the start of one refresh to the start of the next.
	Every time.Duration
	// Count stops after that many frames; 0 runs until ctx ends.
	Count int
}

// Stream writes each frame to out as p says (by default one table per frame, each under a
// line with the frame's time and window, a blank line between them); warnings and failed
// targets go to errOut. It returns nil when ctx ends or Count frames were written, and the
// error of a frame that could not be made.
func Stream(ctx context.Context, out, errOut io.Writer, next Next, loop Loop, p Print) error {
	tick := time.NewTicker(loop.Every)
	defer tick.Stop()
	warned := map[string]bool{}
	for n := 0; loop.Count == 0 || n < loop.Count; n++ {
		if n > 0 {
			select {
			case <-ctx.Done():
				return nil
			case <-tick.C:
			}
		}
		f, err := next(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			return err
		}
		if err := writeFrame(out, errOut, f, n, warned, p); err != nil {
			return err
		}
	}
	return nil
}

// writeFrame writes the n-th frame (from 0): its queue list as p says, and on errOut what went
// wrong: each warning once (warned holds those already given), the failed targets at every
// frame. What came from outside is written escaped (printable).
func writeFrame(out, errOut io.Writer, f *view.Frame, n int, warned map[string]bool, p Print) error {
	s := shown(f)
	for _, w := range s.Warnings {
		if !warned[w] {
			warned[w] = true
			fmt.Fprintf(errOut, "warning: %s\n", w)
		}
	}
	for _, e := range s.List.Errors {
		fmt.Fprintf(errOut, "error: %s: %s\n", e.Target, e.Error)
	}
	return printFrame(out, f, n, p)
}
