package pipeline

import (
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/engine"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/open"
)

// Plan is what a verb asks to read.
type Plan struct {
	// Spec says the source and the bounds of the reading; Inputs what opening it needs besides.
	Spec   open.Spec
	Inputs open.Inputs
	// Progress, when set, draws the progress line of the reading.
	Progress func(what string, total int) engine.Progress
}

// opened is a plan's source opened: the engine's environment, and the reading and scope of
// the source.
type opened struct {
	open.Opened
	env engine.Env
}

// open builds the plan's source; it reads nothing yet.
func (p Plan) open() (opened, error) {
	r, err := open.Open(p.Spec, p.Inputs)
	if err != nil {
		return opened{}, err
	}
	return openedOf(r, p.Progress), nil
}

// openedOf is a source opened with the progress line that draws its reading (nil: none).
func openedOf(r open.Opened, progress func(what string, total int) engine.Progress) opened {
	return opened{Opened: r, env: engine.Env{Source: r.Source, Progress: progress, Now: r.Now}}
}
