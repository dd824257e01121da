// This file draws one line on stderr while a command reads its targets, for a person
// at a terminal: it appears only when stderr is a terminal and the work has taken more than a
// second, counts the targets done, and is erased when the work ends. It writes nothing to
// anything else (a pipe, a file, a test buffer).

package cmd

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/run"
)

// ProgressDelay is how long the work runs before the line appears.
const ProgressDelay = time.Second

// ProgressLine is the progress line of one piece of work.
type ProgressLine struct {
	w     io.Writer
	what  string
	total int

	mu      sync.Mutex
	done    int
	shown   bool
	stopped bool
	stop    chan struct{}
	wg      sync.WaitGroup
}

// StartProgress begins the work: what says what is being done (e.g. "Reading 12 targets twice, 5s
// apart"); total is the number of steps (0: no count shown). On a terminal the line appears
// after Delay and is redrawn every quarter of a second until Stop.
func StartProgress(w io.Writer, what string, total int) *ProgressLine {
	return start(w, what, total, isTerminal(w), ProgressDelay, 250*time.Millisecond)
}

func start(w io.Writer, what string, total int, tty bool, delay, every time.Duration) *ProgressLine {
	l := &ProgressLine{w: w, what: what, total: total, stop: make(chan struct{})}
	if !tty {
		l.stopped = true
		return l
	}
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		select {
		case <-l.stop:
			return
		case <-time.After(delay):
		}
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			l.draw()
			select {
			case <-l.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return l
}

// Step records one step done; safe for concurrent use.
func (l *ProgressLine) Step() {
	l.mu.Lock()
	l.done++
	l.mu.Unlock()
}

// Stop ends the work and erases the line if it was shown.
func (l *ProgressLine) Stop() {
	l.mu.Lock()
	if l.stopped {
		l.mu.Unlock()
		return
	}
	l.stopped = true
	l.mu.Unlock()
	close(l.stop)
	l.wg.Wait()
	if l.shown {
		fmt.Fprint(l.w, "\r\033[K")
	}
}

func (l *ProgressLine) draw() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.shown = true
	if l.total > 0 {
		fmt.Fprintf(l.w, "\r\033[K%s... %d/%d done", l.what, l.done, l.total)
		return
	}
	fmt.Fprintf(l.w, "\r\033[K%s...", l.what)
}

// ProgressTo returns the progress display the run layer draws on w.
func ProgressTo(w io.Writer) func(what string, total int) run.Progress {
	return func(what string, total int) run.Progress { return StartProgress(w, what, total) }
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
