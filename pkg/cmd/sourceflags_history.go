package cmd

import (
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/run"
)

// LiveSpec is Spec for a live view (top): the source is always the targets themselves;
// --prometheus, when given, is only where their recent history is asked (Prometheus.History),
// for the caller to give a step and a number of points.
func (f *SourceFlags) LiveSpec(g *cli.GlobalFlags, args []string) (run.Spec, error) {
	if f.Prom.URL == "" {
		return f.Spec(g, args)
	}
	if f.Prom.At != "" {
		return run.Spec{}, cli.UsageError("--at: a live view's history ends now")
	}
	if f.flags != nil && f.flags.Lookup("max-source-resolution") != nil && f.flags.Lookup("max-source-resolution").Changed {
		return run.Spec{}, cli.UsageError("--max-source-resolution: a live view's history is the last minutes, read raw")
	}
	server, err := f.promServer(g)
	if err != nil {
		return run.Spec{}, err
	}
	s, err := f.liveSpec(g, args)
	if err != nil {
		return run.Spec{}, err
	}
	server.History = true
	s.Prometheus = server
	return s, nil
}
