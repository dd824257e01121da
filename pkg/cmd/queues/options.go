package queues

import (
	"context"
	"fmt"
	"slices"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/exitcode"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/globals"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/progress"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/sourceflags"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/stderrline"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/thresholdflags"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/plural"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printer"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/render"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/run"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// formats are the values of -o: "" is the table; kubectl's forms print the items or the
// whole list.
var formats = slices.Concat([]string{"", "table", "wide", "json", "yaml"}, printer.ItemFormats, printer.TemplateFormats)

// Options holds the flag values of the queues command.
type Options struct {
	Sources    sourceflags.Flags
	Thresholds thresholdflags.Flags
	Output     string
	NoHeaders  bool
	SortBy     string
	Args       []string

	// run is the plan opened and format the output format ready to print; set by Validate.
	run    *run.Queues
	format string

	globals *globals.Flags
	genericiooptions.IOStreams
}

// NewOptions returns the options with their defaults.
func NewOptions(g *globals.Flags, streams genericiooptions.IOStreams) *Options {
	return &Options{globals: g, IOStreams: streams, Sources: sourceflags.Defaults()}
}

// Complete takes the TARGET arguments.
func (o *Options) Complete(args []string) error {
	o.Args = args
	return nil
}

// Validate checks the flag values and opens queues' plan.
func (o *Options) Validate() error {
	format, err := printer.Prepare(o.Output, formats...)
	if err != nil {
		return exitcode.UsageError("%v", err)
	}
	o.format = format
	if o.SortBy != "" {
		if err := printer.CheckSortBy(o.SortBy, view.QueueItem{}); err != nil {
			return exitcode.UsageError("%v", err)
		}
	}
	th, err := o.Thresholds.Thresholds()
	if err != nil {
		return err
	}
	spec, err := o.Sources.Spec(o.globals, o.Args)
	if err != nil {
		return err
	}
	o.run, err = run.NewQueues(run.Plan{Spec: spec, Inputs: sourceflags.Inputs(o.globals, o.In, o.ErrOut),
		Progress: progress.To(o.ErrOut)}, th)
	return err
}

// Run reads the targets, and prints the queue table and, on stderr, the warnings and the
// targets that could not be read.
func (o *Options) Run(ctx context.Context) error {
	res, err := o.run.Run(ctx)
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		stderrline.Say(o.ErrOut, "warning", w)
	}
	for _, e := range res.List.Errors {
		stderrline.Say(o.ErrOut, "error", e.Target+": "+e.Error)
	}
	if err := render.WriteList(o.Out, o.format, res.List, render.ListOptions{NoHeaders: o.NoHeaders, SortBy: o.SortBy, Ranks: view.QueueRanks, Width: globals.Width(o.Out)}); err != nil {
		return err
	}
	if n := len(res.List.Errors); n > 0 {
		// As kubectl get: what could be read is printed, and the run that could not read
		// everything it was asked for exits 1, the failed targets named above.
		return exitcode.Failure(fmt.Errorf("%s could not be read completely (named above); the rest is printed", plural.Count(n, "target")))
	}
	return nil
}
