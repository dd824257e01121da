package queues

import (
	"context"
	"fmt"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/exitcode"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/globals"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/progress"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/sourceflags"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/thresholdflags"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/collect"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/engine"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printers"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/render"
)

// Options holds the flag values of the queues command.
type Options struct {
	Sources    sourceflags.Flags
	Thresholds thresholdflags.Flags
	Output     string
	Args       []string

	// Set by Validate.
	config     collect.Config
	thresholds findings.Thresholds

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

// Validate checks the flag values and builds the collect configuration.
func (o *Options) Validate() error {
	if err := printers.ValidateFormat(o.Output, "", "wide", "json", "yaml"); err != nil {
		return exitcode.UsageError("%v", err)
	}
	th, err := o.Thresholds.Thresholds()
	if err != nil {
		return err
	}
	o.thresholds = th
	cfg, err := o.Sources.Config(o.globals, o.Args, o.In)
	if err != nil {
		return err
	}
	o.config = cfg
	return nil
}

// Run reads the targets, and prints the queue table and, on stderr, the warnings and the
// targets that could not be read.
func (o *Options) Run(ctx context.Context) error {
	res, err := engine.Queues(ctx, engine.QueuesConfig{Read: o.Sources.Read(), Thresholds: o.thresholds,
		Scope: sourceflags.Scope(o.config)}, o.env())
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(o.ErrOut, "warning: %s\n", w)
	}
	for _, e := range res.List.Errors {
		fmt.Fprintf(o.ErrOut, "error: %s: %s\n", e.Target, e.Error)
	}
	if printers.Structured(o.Output) {
		return printers.Write(o.Out, o.Output, res.List)
	}
	return render.QueueTable(o.Out, res.List, o.Output == "wide")
}

// env is where the engine reads from and draws its progress.
func (o *Options) env() engine.Env {
	return engine.Env{Source: o.Sources.Source(o.globals, o.config), Progress: progress.To(o.ErrOut)}
}
