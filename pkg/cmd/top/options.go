package top

import (
	"context"
	"os"
	"time"

	"golang.org/x/term"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/exitcode"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/globals"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/progress"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/sourceflags"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/thresholdflags"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/engine"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/live"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/open"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/promsource"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// Options holds the flag values of the top command.
type Options struct {
	Sources    sourceflags.Flags
	Thresholds thresholdflags.Flags
	Refresh    time.Duration
	Rediscover time.Duration
	Count      int
	Args       []string

	// Set by Validate.
	cfg engine.QueuesConfig
	env engine.Env
	// history is the server of the targets' recent history (--prometheus), or nil.
	history *promsource.History

	globals *globals.Flags
	genericiooptions.IOStreams
}

// NewOptions returns the options with their defaults.
func NewOptions(g *globals.Flags, streams genericiooptions.IOStreams) *Options {
	return &Options{globals: g, IOStreams: streams, Sources: sourceflags.Defaults(), Refresh: 2 * time.Second,
		Rediscover: DefaultRediscover}
}

// Complete takes the TARGET arguments.
func (o *Options) Complete(args []string) error {
	o.Args = args
	return nil
}

// Validate checks the flag values and builds the engine's configuration and source.
func (o *Options) Validate() error {
	switch {
	case o.Refresh < 100*time.Millisecond:
		return exitcode.UsageError("--refresh must be at least 100ms, got %s", o.Refresh)
	case o.Rediscover < 0:
		return exitcode.UsageError("--rediscover must be 0 (never) or positive, got %s", o.Rediscover)
	case o.Count < 0:
		return exitcode.UsageError("--count must be 0 (until interrupted) or positive, got %d", o.Count)
	case len(o.Sources.Files) > 0:
		return exitcode.UsageError("top reads live targets again and again; saved pages (--from-file) do not change: use kubectl ctrldiag queues --from-file")
	}
	th, err := o.Thresholds.Thresholds()
	if err != nil {
		return err
	}
	spec, err := o.Sources.LiveSpec(o.globals, o.Args)
	if err != nil {
		return err
	}
	// Refreshes read the same pods again and again: their port-forwards stay open.
	spec.KeepForwards = true
	spec.Prometheus.HistoryStep, spec.Prometheus.HistoryPoints = historyStep(o.Refresh), live.HistoryPoints
	r, err := open.Open(spec, sourceflags.Inputs(o.globals, o.In, o.ErrOut))
	if err != nil {
		return err
	}
	o.history = r.History
	o.cfg, o.env = engine.QueuesConfig{Read: r.Read, Thresholds: th, Scope: r.Scope}, r.Env(progress.To(o.ErrOut))
	// A refresh draws no progress line: the view or the stream is the progress.
	o.env.Progress = nil
	return nil
}

// Run refreshes until interrupted (or --count frames): full screen on a terminal, else one
// table per refresh.
func (o *Options) Run(ctx context.Context) error {
	top := engine.NewTop(o.cfg, o.env)
	defer top.Close()
	top.SetRediscover(o.Rediscover)
	loop := live.Loop{Every: o.Refresh, Count: o.Count}
	if terminal(o.Out) && terminal(o.In) {
		if o.history != nil {
			// Only the sparklines show history: a stream of tables does not ask for it.
			top.SetHistory(func(ctx context.Context, targets []target.Target, end time.Time) ([]promsource.QueueHistory, []string, error) {
				ctx, cancel := context.WithTimeout(ctx, historyDeadline)
				defer cancel()
				return o.history.Read(ctx, targets, end)
			})
		}
		return live.Screen(ctx, o.In, o.Out, top.Next, loop)
	}
	return live.Stream(ctx, o.Out, o.ErrOut, top.Next, loop)
}

// DefaultRediscover is the default time between two discoveries of the targets during a
// session: a rollout's new pod shows within it (sooner when the old pod's row fails first),
// for a few LISTs every 30s.
const DefaultRediscover = 30 * time.Second

// historyDeadline bounds the wait for the history: the view starts without it rather than
// late.
const historyDeadline = 10 * time.Second

// historyStep is the time between two points of the history before the session: the
// refresh, and at least the usual scrape interval.
func historyStep(refresh time.Duration) time.Duration {
	return max(refresh, promsource.MinHistoryStep)
}

// terminal reports whether s is a terminal.
func terminal(s any) bool {
	f, ok := s.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
