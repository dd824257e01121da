package cmd

import (
	"context"
	"errors"
	"time"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/printer"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/render"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/run"
)

// ReportOptions holds the flag values of the report command.
type ReportOptions struct {
	Sources             SourceFlags
	Output              string
	FailOn              FailOnFlag
	Thresholds          ThresholdFlags
	GenerationResources []string
	ControllerKinds     []string
	MemoryLimit         string
	Since               time.Duration
	IgnoreFile          string
	TargetQueueWait     time.Duration
	Workers             []string
	NoProfile           bool
	NoLogs              bool
	PprofPort           int32
	Args                []string

	// plan is what to read and report report's options; set by Validate.
	plan    run.Plan
	report  run.ReportOptions
	format  string // -o ready to print; set by Validate
	globals *cli.GlobalFlags
	genericiooptions.IOStreams
}

// NewReportOptions returns the options with report's defaults: the API server is read too.
func NewReportOptions(g *cli.GlobalFlags, streams genericiooptions.IOStreams) *ReportOptions {
	o := &ReportOptions{globals: g, IOStreams: streams, Sources: SourceDefaults(), FailOn: FailOnFindings()}
	o.Sources.IncludeAPIServer = true
	return o
}

// Format is -o ready to print (a template file's content read), once Validate succeeded.
func (o *ReportOptions) Format() string { return o.format }

// Complete takes the TARGET arguments.
func (o *ReportOptions) Complete(args []string) error {
	o.Args = args
	return nil
}

// Validate checks the flags and builds the configuration.
func (o *ReportOptions) Validate() error {
	args := o.Args
	format, err := printer.Prepare(o.Output, ReportFormats...)
	if err != nil {
		return cli.UsageError("%v", err)
	}
	o.format = format
	if err := o.FailOn.Validate(); err != nil {
		return err
	}
	th, err := o.Thresholds.Thresholds()
	if err != nil {
		return err
	}
	o.report = run.ReportOptions{Thresholds: th, Since: o.Since, TargetQueueWait: o.TargetQueueWait, SLOQueueWait: o.Thresholds.SLOQueueWait(),
		Workers: o.Workers, Generations: o.GenerationResources, ControllerKinds: o.ControllerKinds,
		MemoryLimit: o.MemoryLimit, IgnoreFile: o.IgnoreFile, FailOn: o.FailOn.Level(), NoProfile: o.NoProfile, PprofPort: o.PprofPort, NoLogs: o.NoLogs}
	spec, err := o.Sources.Spec(o.globals, args)
	if err != nil {
		return err
	}
	if len(spec.URLs) > 0 || len(spec.Files) > 0 {
		// Pages and URLs given: the API server only when TARGETs bring the cluster in.
		spec.IncludeAPIServer = spec.IncludeAPIServer && len(args) > 0
	}
	// The kubeconfig's cluster adds pods, objects and Leases to the series of --prometheus.
	spec.Prometheus.WithCluster = true
	o.plan = run.Plan{Spec: spec, Inputs: Inputs(o.globals, o.In, o.ErrOut), Progress: ProgressTo(o.ErrOut)}
	return nil
}

// Run makes and prints the report, and sets the exit code --fail-on asks for.
func (o *ReportOptions) Run(ctx context.Context) error {
	res, err := run.Report(ctx, o.plan, o.report)
	if err != nil {
		return err
	}
	r := res.Report
	for _, w := range res.Warnings {
		cli.Say(o.ErrOut, "warning", w)
	}
	if s := r.Suppressions; s != nil {
		for _, e := range s.Expired {
			cli.Say(o.ErrOut, "notice", e)
		}
	}
	if err := render.WriteList(o.Out, o.format, r, render.ListOptions{Width: cli.Width(o.Out)}); err != nil {
		return err
	}
	if res.NoneRead() {
		if err := res.Late(); err != nil {
			return err
		}
		return errors.New("no target could be read: see the scrape-failed findings")
	}
	if res.Failed() {
		return &cli.ExitCodeError{Code: cli.ExitFindings}
	}
	return nil
}

// Planned is the plan and report's options Validate made, for a command that runs them its
// own way (snapshot).
func (o *ReportOptions) Planned() (run.Plan, run.ReportOptions) { return o.plan, o.report }
