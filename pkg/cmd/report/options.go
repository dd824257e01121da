package report

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cachesync"
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
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/report"
)

// Options holds the flag values of the report command.
type Options struct {
	Sources             sourceflags.Flags
	Output              string
	FailOn              string
	Thresholds          thresholdflags.Flags
	GenerationResources []string
	MemoryLimit         string

	config      collect.Config
	thresholds  findings.Thresholds
	generations []schema.GroupVersionResource
	memoryLimit float64
	globals     *globals.Flags
	genericiooptions.IOStreams
}

// NewOptions returns the options with report's defaults: the API server is read too.
func NewOptions(g *globals.Flags, streams genericiooptions.IOStreams) *Options {
	o := &Options{globals: g, IOStreams: streams, Sources: sourceflags.Defaults(), FailOn: "none"}
	o.Sources.IncludeAPIServer = true
	return o
}

// Validate checks the flags and builds the configuration.
func (o *Options) Validate(args []string) error {
	if err := printers.ValidateFormat(o.Output, "", "text", "json", "yaml", "markdown", "html"); err != nil {
		return exitcode.UsageError("%v", err)
	}
	switch o.FailOn {
	case "none", "warning", "critical":
	default:
		return exitcode.UsageError("--fail-on must be none, warning or critical, got %q", o.FailOn)
	}
	th, err := o.Thresholds.Thresholds()
	if err != nil {
		return err
	}
	o.thresholds = th
	o.generations = append([]schema.GroupVersionResource(nil), cachesync.DefaultGenerationResources...)
	for _, r := range o.GenerationResources {
		gv, err := parseResource(r)
		if err != nil {
			return exitcode.UsageError("%v", err)
		}
		o.generations = append(o.generations, gv)
	}
	if o.MemoryLimit != "" {
		q, err := resource.ParseQuantity(o.MemoryLimit)
		if err != nil || q.Sign() <= 0 {
			return exitcode.UsageError("--memory-limit %q is not a positive quantity like 256Mi", o.MemoryLimit)
		}
		o.memoryLimit = q.AsApproximateFloat64()
	}
	if len(o.Sources.URLs) > 0 || len(o.Sources.Files) > 0 {
		o.Sources.IncludeAPIServer = o.Sources.IncludeAPIServer && len(args) > 0
	}
	cfg, err := o.Sources.Config(o.globals, args, o.In)
	if err != nil {
		return err
	}
	o.config = cfg
	return nil
}

// parseResource reads RESOURCE.GROUP/VERSION.
func parseResource(s string) (schema.GroupVersionResource, error) {
	rg, version, ok := strings.Cut(s, "/")
	resourceName, group, _ := strings.Cut(rg, ".")
	if !ok || version == "" || resourceName == "" {
		return schema.GroupVersionResource{}, fmt.Errorf("--generation-resource %q: use RESOURCE.GROUP/VERSION, e.g. widgets.example.com/v1", s)
	}
	return schema.GroupVersionResource{Group: group, Version: version, Resource: resourceName}, nil
}

// Run makes and prints the report, and sets the exit code --fail-on asks for.
func (o *Options) Run(ctx context.Context) error {
	res, err := engine.Report(ctx, engine.ReportConfig{Read: o.Sources.Read(), Thresholds: o.thresholds,
		Scope: sourceflags.Scope(o.config), Generations: o.generations, MemoryLimitBytes: o.memoryLimit},
		engine.Env{Source: o.Sources.Source(o.globals, o.config), Progress: progress.To(o.ErrOut)})
	if err != nil {
		return err
	}
	r := res.Report
	for _, w := range res.Warnings {
		fmt.Fprintf(o.ErrOut, "warning: %s\n", w)
	}
	if err := o.print(r); err != nil {
		return err
	}
	if r.Summary.Read == 0 {
		return errors.New("no target could be read: see the scrape-failed findings")
	}
	if failOn(o.FailOn, r.Findings) {
		return &exitcode.ExitCodeError{Code: exitcode.Findings}
	}
	return nil
}

func (o *Options) print(r report.Report) error {
	switch o.Output {
	case "json", "yaml":
		return printers.Write(o.Out, o.Output, r)
	case "markdown":
		return render.ReportMarkdown(o.Out, r)
	case "html":
		return render.ReportHTML(o.Out, r)
	}
	return render.ReportText(o.Out, r)
}

// failOn reports whether a finding reaches the --fail-on severity.
func failOn(level string, fs []findings.Finding) bool {
	w := findings.Worst(fs)
	switch level {
	case "warning":
		return w == findings.Warning || w == findings.Critical
	case "critical":
		return w == findings.Critical
	}
	return false
}
