package cmd

import (
	"context"
	"os"
	"slices"
	"time"

	"golang.org/x/term"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/live"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/printer"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/render"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/run"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// topFormats are the values of -o, those of queues: each refresh prints its queue list so.
var topFormats = slices.Concat([]string{"", "table", "wide", "json", "yaml"}, printer.ItemFormats, printer.TemplateFormats)

// TopOptions holds the flag values of the top command.
type TopOptions struct {
	Sources    SourceFlags
	Thresholds ThresholdFlags
	Refresh    time.Duration
	Rediscover time.Duration
	Count      int
	Output     string
	NoHeaders  bool
	SortBy     string
	Args       []string

	// plan is what to read, top top's configuration and print how each refresh is printed;
	// set by Validate.
	plan  run.Plan
	top   run.TopConfig
	print live.Print
	// printing is whether a printing flag (-o, --no-headers, --sort-by) was given: the
	// refreshes are then printed, on a terminal too.
	printing bool

	globals *cli.GlobalFlags
	genericiooptions.IOStreams
}

// NewTopOptions returns the options with their defaults.
func NewTopOptions(g *cli.GlobalFlags, streams genericiooptions.IOStreams) *TopOptions {
	return &TopOptions{globals: g, IOStreams: streams, Sources: SourceDefaults(), Refresh: 2 * time.Second,
		Rediscover: DefaultRediscover}
}

// Complete takes the TARGET arguments.
func (o *TopOptions) Complete(args []string) error {
	o.Args = args
	return nil
}

// Validate checks the flag values and opens top's plan.
func (o *TopOptions) Validate() error {
	switch {
	case o.Refresh < 100*time.Millisecond:
		return cli.UsageError("--refresh must be at least 100ms, got %s", o.Refresh)
	case o.Rediscover < 0:
		return cli.UsageError("--rediscover must be 0 (never) or positive, got %s", o.Rediscover)
	case o.Count < 0:
		return cli.UsageError("--count must be 0 (until interrupted) or positive, got %d", o.Count)
	case len(o.Sources.Files) > 0:
		return cli.UsageError("top reads live targets again and again; saved pages (--from-file) do not change: use kubectl ctrldiag queues --from-file")
	}
	format, err := printer.Prepare(o.Output, topFormats...)
	if err != nil {
		return cli.UsageError("%v", err)
	}
	if o.SortBy != "" {
		if err := printer.CheckSortBy(o.SortBy, view.QueueItem{}); err != nil {
			return cli.UsageError("%v", err)
		}
	}
	o.print = live.Print{Format: format, List: render.ListOptions{NoHeaders: o.NoHeaders, SortBy: o.SortBy, Ranks: view.QueueRanks, Width: cli.Width(o.Out)}}
	o.printing = o.Output != "" || o.NoHeaders || o.SortBy != ""
	th, err := o.Thresholds.Thresholds()
	if err != nil {
		return err
	}
	spec, err := o.Sources.LiveSpec(o.globals, o.Args)
	if err != nil {
		return err
	}
	o.plan = run.Plan{Spec: spec, Inputs: Inputs(o.globals, o.In, o.ErrOut)}
	o.top = run.TopConfig{Thresholds: th, Refresh: o.Refresh, Rediscover: o.Rediscover, HistoryPoints: live.HistoryPoints}
	return nil
}

// Run refreshes until interrupted (or --count frames): full screen on a terminal unless a
// printing flag was given, else each refresh printed (one table by default).
func (o *TopOptions) Run(ctx context.Context) error {
	loop := live.Loop{Every: o.Refresh, Count: o.Count}
	cfg := o.top
	// Only the full-screen view's sparklines show the history.
	cfg.History = !o.printing && terminal(o.Out) && terminal(o.In)
	top, err := run.Top(o.plan, cfg)
	if err != nil {
		return err
	}
	defer top.Close()
	if cfg.History {
		return live.Screen(ctx, o.In, o.Out, top.Next, loop)
	}
	return live.Stream(ctx, o.Out, o.ErrOut, top.Next, loop, o.print)
}

// DefaultRediscover is the default time between two discoveries of the targets during a
// session: a rollout's new pod shows within it (sooner when the old pod's row fails first),
// for a few LISTs every 30s.
const DefaultRediscover = 30 * time.Second

// terminal reports whether s is a terminal.
func terminal(s any) bool {
	f, ok := s.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
