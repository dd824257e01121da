package report

import (
	"context"
	"errors"
	"time"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/exitcode"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/failonflag"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/globals"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/progress"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/sourceflags"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/stderrline"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/thresholdflags"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printer"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/render"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/run"
)

// Options holds the flag values of the report command.
type Options struct {
	Sources             sourceflags.Flags
	Output              string
	FailOn              failonflag.Flag
	Thresholds          thresholdflags.Flags
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

	// run is the plan opened; set by Validate.
	run     *run.Report
	format  string // -o ready to print; set by Validate
	globals *globals.Flags
	genericiooptions.IOStreams
}

// NewOptions returns the options with report's defaults: the API server is read too.
func NewOptions(g *globals.Flags, streams genericiooptions.IOStreams) *Options {
	o := &Options{globals: g, IOStreams: streams, Sources: sourceflags.Defaults(), FailOn: failonflag.Findings()}
	o.Sources.IncludeAPIServer = true
	return o
}

// Format is -o ready to print (a template file's content read), once Validate succeeded.
func (o *Options) Format() string { return o.format }

// Complete takes the TARGET arguments.
func (o *Options) Complete(args []string) error {
	o.Args = args
	return nil
}

// Validate checks the flags and builds the configuration.
func (o *Options) Validate() error {
	args := o.Args
	format, err := printer.Prepare(o.Output, Formats...)
	if err != nil {
		return exitcode.UsageError("%v", err)
	}
	o.format = format
	if err := o.FailOn.Validate(); err != nil {
		return err
	}
	th, err := o.Thresholds.Thresholds()
	if err != nil {
		return err
	}
	cfg, err := run.NewReportConfig(run.ReportOptions{Thresholds: th, Since: o.Since, TargetQueueWait: o.TargetQueueWait, SLOQueueWait: o.Thresholds.SLOQueueWait(),
		Workers: o.Workers, Generations: o.GenerationResources, ControllerKinds: o.ControllerKinds,
		MemoryLimit: o.MemoryLimit, IgnoreFile: o.IgnoreFile, FailOn: o.FailOn.Level(), NoProfile: o.NoProfile, PprofPort: o.PprofPort, NoLogs: o.NoLogs})
	if err != nil {
		return err
	}
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
	o.run, err = run.NewReport(run.Plan{Spec: spec, Inputs: sourceflags.Inputs(o.globals, o.In, o.ErrOut),
		Progress: progress.To(o.ErrOut)}, cfg)
	return err
}

// Run makes and prints the report, and sets the exit code --fail-on asks for.
func (o *Options) Run(ctx context.Context) error {
	res, err := o.run.Run(ctx)
	if err != nil {
		return err
	}
	r := res.Report
	for _, w := range res.Warnings {
		stderrline.Say(o.ErrOut, "warning", w)
	}
	if s := r.Suppressions; s != nil {
		for _, e := range s.Expired {
			stderrline.Say(o.ErrOut, "notice", e)
		}
	}
	if err := render.WriteList(o.Out, o.format, r, render.ListOptions{Width: globals.Width(o.Out)}); err != nil {
		return err
	}
	if res.NoneRead() {
		if err := res.Late(); err != nil {
			return err
		}
		return errors.New("no target could be read: see the scrape-failed findings")
	}
	if res.Failed() {
		return &exitcode.ExitCodeError{Code: exitcode.Findings}
	}
	return nil
}

// Opened is the plan Validate opened, for a command that runs it its own way (snapshot).
func (o *Options) Opened() *run.Report { return o.run }
