package cmd

import (
	"context"
	"fmt"
	"slices"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/printer"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/render"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/run"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// queuesFormats are the values of -o: "" is the table; kubectl's forms print the items or the
// whole list.
var queuesFormats = slices.Concat([]string{"", "table", "wide", "json", "yaml"}, printer.ItemFormats, printer.TemplateFormats)

// QueuesOptions holds the flag values of the queues command.
type QueuesOptions struct {
	Sources    SourceFlags
	Thresholds ThresholdFlags
	Output     string
	NoHeaders  bool
	SortBy     string
	Args       []string

	// plan is what to read, th the thresholds and format the output format ready to print;
	// set by Validate.
	plan   run.Plan
	th     findings.Thresholds
	format string

	globals *cli.GlobalFlags
	genericiooptions.IOStreams
}

// NewQueuesOptions returns the options with their defaults.
func NewQueuesOptions(g *cli.GlobalFlags, streams genericiooptions.IOStreams) *QueuesOptions {
	return &QueuesOptions{globals: g, IOStreams: streams, Sources: SourceDefaults()}
}

// Complete takes the TARGET arguments.
func (o *QueuesOptions) Complete(args []string) error {
	o.Args = args
	return nil
}

// Validate checks the flag values and opens queues' plan.
func (o *QueuesOptions) Validate() error {
	format, err := printer.Prepare(o.Output, queuesFormats...)
	if err != nil {
		return cli.UsageError("%v", err)
	}
	o.format = format
	if o.SortBy != "" {
		if err := printer.CheckSortBy(o.SortBy, view.QueueItem{}); err != nil {
			return cli.UsageError("%v", err)
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
	o.plan, o.th = run.Plan{Spec: spec, Inputs: Inputs(o.globals, o.In, o.ErrOut), Progress: ProgressTo(o.ErrOut)}, th
	return nil
}

// Run reads the targets, and prints the queue table and, on stderr, the warnings and the
// targets that could not be read.
func (o *QueuesOptions) Run(ctx context.Context) error {
	res, err := run.Queues(ctx, o.plan, o.th)
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		cli.Say(o.ErrOut, "warning", w)
	}
	for _, e := range res.List.Errors {
		cli.Say(o.ErrOut, "error", e.Target+": "+e.Error)
	}
	if err := render.WriteList(o.Out, o.format, res.List, render.ListOptions{NoHeaders: o.NoHeaders, SortBy: o.SortBy, Ranks: view.QueueRanks, Width: cli.Width(o.Out)}); err != nil {
		return err
	}
	if n := len(res.List.Errors); n > 0 {
		// As kubectl get: what could be read is printed, and the run that could not read
		// everything it was asked for exits 1, the failed targets named above.
		return cli.Failure(fmt.Errorf("%s could not be read completely (named above); the rest is printed", printable.Plural(n, "target")))
	}
	return nil
}
