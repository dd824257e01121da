package run

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// Env is where the stages' inputs come from and where their progress goes: a source opened.
type Env struct {
	// Source yields the targets and their samples.
	Source source.Source
	// Progress, when set, shows that work is under way: what is done, of how many steps (0:
	// unknown). The stages step it once a target and stop it.
	Progress func(what string, total int) Progress
	// Now is the time of the run, what is judged as now (time.Now when nil): a snapshot's
	// time, or the end of a Prometheus window.
	Now func() time.Time
	// Clock is the run's one clock (--deadline): the run bounds its context with it at its
	// start, and every source call, reading and cluster read after uses that context.
	Clock source.Clock
}

// Progress is a running progress display.
type Progress interface {
	Step()
	Stop()
}

func (e Env) now() time.Time {
	if e.Now == nil {
		return time.Now()
	}
	return e.Now()
}

type noProgress struct{}

func (noProgress) Step() {}
func (noProgress) Stop() {}

func (e Env) progress(what string, total int) Progress {
	if e.Progress == nil {
		return noProgress{}
	}
	return e.Progress(what, total)
}

// readAll reads the opened source's targets, with a progress line. It fails when a target's
// error is one in what the user gave (two saved pages that make no window): judging the rest
// would print numbers the user did not ask for.
func (e Env) readAll(ctx context.Context, inv *source.Inventory, o source.Options) ([]source.Result, error) {
	n := len(inv.Targets)
	line := e.progress(reading(n, o.Interval), n)
	o.Done = line.Step
	results := e.Source.Read(ctx, o)
	line.Stop()
	for _, r := range results {
		var u usageError
		if errors.As(r.Err, &u) && u.Usage() {
			return nil, fmt.Errorf("%s: %w", r.ID(), r.Err)
		}
	}
	return results, nil
}

// usageError is an error in the command line rather than in a target (the exit code tells
// them apart).
type usageError interface {
	error
	Usage() bool
}

// reading is what reading n targets does, in the words of a progress line: "Reading 3 targets
// twice, 5s apart", or "Reading 3 targets" for one sample.
func reading(n int, interval time.Duration) string {
	if interval <= 0 {
		return "Reading " + printable.Plural(n, "target")
	}
	return fmt.Sprintf("Reading %s twice, %s apart", printable.Plural(n, "target"), interval)
}
