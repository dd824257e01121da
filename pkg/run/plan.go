package run

import (
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// Plan is what a verb asks to read.
type Plan struct {
	// Spec says the source and the bounds of the reading; Inputs what opening it needs besides.
	Spec   Spec
	Inputs Inputs
	// Progress, when set, draws the progress line of the reading.
	Progress func(what string, total int) Progress
	// Clock is the wall clock, read once when the plan opens: the run's deadline
	// (Spec.Deadline) counts from then (nil: time.Now).
	Clock func() time.Time
}

// opened is a plan's source opened: the stages' environment, and the reading and scope of
// the source.
type opened struct {
	Opened
	env Env
}

// open starts the run's clock and builds the plan's source; it reads nothing yet, but a
// snapshot, which it reads within the run's deadline.
func (p Plan) open() (opened, error) {
	clock := source.StartClock(p.Clock, p.Spec.Deadline)
	r, err := Open(p.Spec, p.Inputs, clock)
	if err != nil {
		return opened{}, err
	}
	return openedOf(r, p.Progress, clock), nil
}

// openedOf is a source opened with the progress line that draws its reading (nil: none),
// run on clock.
func openedOf(r Opened, progress func(what string, total int) Progress, clock source.Clock) opened {
	return opened{Opened: r, env: Env{Source: r.Source, Progress: progress, Now: r.Now, Clock: clock}}
}
