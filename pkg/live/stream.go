package live

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/engine"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/render"
)

// Next yields the next frame; it fails only when the targets cannot be found at all.
type Next func(ctx context.Context) (*engine.Frame, error)

// Loop says how often to refresh and when to stop.
type Loop struct {
	// Every is the time from the start of one refresh to the start of the next.
	Every time.Duration
	// Count stops after that many frames; 0 runs until ctx ends.
	Count int
}

// Stream writes one table per frame to out, each under a line with the frame's time and
// window, a blank line between them; warnings and failed targets go to errOut. It returns nil
// when ctx ends or Count frames were written, and the error of a frame that could not be made.
func Stream(ctx context.Context, out, errOut io.Writer, next Next, loop Loop) error {
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
		if err := writeFrame(out, errOut, f, n > 0, warned); err != nil {
			return err
		}
	}
	return nil
}

// writeFrame writes one frame: the header line, the table, and on errOut what went wrong:
// each warning once (warned holds those already given), the failed targets at every frame.
// What came from outside is written escaped (printable).
func writeFrame(out, errOut io.Writer, f *engine.Frame, blank bool, warned map[string]bool) error {
	f = shown(f)
	for _, w := range f.Warnings {
		if !warned[w] {
			warned[w] = true
			fmt.Fprintf(errOut, "warning: %s\n", w)
		}
	}
	for _, e := range f.List.Errors {
		fmt.Fprintf(errOut, "error: %s: %s\n", e.Target, e.Error)
	}
	if blank {
		if _, err := io.WriteString(out, "\n"); err != nil {
			return err
		}
	}
	if _, err := fmt.Fprintf(out, "# %s  window: %s\n", f.Time.UTC().Format(time.RFC3339), f.Window()); err != nil {
		return err
	}
	return render.QueueTable(out, f.List, false)
}
