package sourceflags

import (
	"io"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/exitcode"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/globals"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/promsource"
)

// ResolveWithHistory is Resolve for a live view (top): the source is always the targets
// themselves; --prometheus, when given, is only where their recent history is asked, and the
// returned History (nil without --prometheus) is its server, for the caller to give a step
// and a number of points.
func (f *Flags) ResolveWithHistory(g *globals.Flags, args []string, stdin io.Reader) (Resolved, *promsource.History, error) {
	if f.Prom.URL == "" {
		r, err := f.Resolve(g, args, stdin)
		return r, nil, err
	}
	if f.Prom.At != "" {
		return Resolved{}, nil, exitcode.UsageError("--at: a live view's history ends now")
	}
	client, _, err := f.promClient(g)
	if err != nil {
		return Resolved{}, nil, err
	}
	r, err := f.resolveLive(g, args, stdin)
	if err != nil {
		return Resolved{}, nil, err
	}
	return r, &promsource.History{Client: client, ClusterLabel: f.Prom.ClusterLabel, Clusters: f.Prom.Clusters}, nil
}
