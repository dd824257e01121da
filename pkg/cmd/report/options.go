package report

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/dynamic"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cachesync"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/exitcode"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/globals"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/progress"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/sourceflags"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/collect"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printers"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/render"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/report"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sample"
)

// Options holds the flag values of the report command.
type Options struct {
	Sources             sourceflags.Flags
	Output              string
	FailOn              string
	ThresholdSet        []string
	ThresholdFile       string
	GenerationResources []string
	MemoryLimit         string

	config      collect.Config
	thresholds  findings.Thresholds
	generations []schema.GroupVersionResource
	memoryLimit float64
	kube        func() (*collect.Kube, error)
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
	o.thresholds = findings.DefaultThresholds()
	if o.ThresholdFile != "" {
		if err := o.thresholds.LoadFile(o.ThresholdFile); err != nil {
			return exitcode.UsageError("%v", err)
		}
	}
	for _, kv := range o.ThresholdSet {
		if err := o.thresholds.Set(kv); err != nil {
			return exitcode.UsageError("%v", err)
		}
	}
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
	kube := o.Sources.Kube(o.globals)
	var once sync.Once
	var k *collect.Kube
	var kerr error
	o.kube = func() (*collect.Kube, error) {
		once.Do(func() { k, kerr = kube() })
		return k, kerr
	}
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
	if ctx == nil {
		ctx = context.Background()
	}
	plan, err := collect.Build(ctx, o.config, o.kube)
	if err != nil {
		return err
	}
	if len(plan.Sources) == 0 && len(plan.Failed) == 0 {
		return errors.New("no controller metrics endpoint found: name a target (pod/NAME, deploy/NAME, svc/NAME), look in another namespace (-n, -A), or give --url; `kubectl ctrldiag targets` shows what discovery sees")
	}
	var dyn dynamic.Interface
	var genBefore []cachesync.GenerationReport
	if o.config.Cluster {
		k, err := o.kube()
		if err != nil {
			return err
		}
		if dyn, err = dynamic.NewForConfig(k.Config); err != nil {
			return err
		}
		genBefore = cachesync.Generations(ctx, dyn, o.config.Discover.Namespace, o.generations)
	}
	line := progress.Start(o.ErrOut, progress.Reading(len(plan.Sources), o.Sources.Interval), len(plan.Sources))
	results := sample.Collect(ctx, plan.Sources, sample.Options{Interval: o.Sources.Interval, Timeout: o.Sources.Timeout,
		Concurrency: o.Sources.Concurrency, Keep: health.Wanted, Deadline: o.Sources.Deadline, Done: line.Step})
	line.Stop()

	in := report.Input{Scope: scope(o.config), Thresholds: o.thresholds, QueueThresholds: health.DefaultThresholds(),
		MemoryLimitBytes: o.memoryLimit, Now: time.Now()}
	in.Targets, in.Pods = targetInputs(plan, results)
	if dyn != nil {
		genAfter := cachesync.Generations(ctx, dyn, o.config.Discover.Namespace, o.generations)
		cachesync.Still(genBefore, genAfter)
		in.Generations = genAfter
		k, _ := o.kube()
		in.Usage, in.UsageNote = podUsage(ctx, k, plan)
	}
	r := report.Build(in)
	for _, w := range plan.Warnings {
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

func scope(cfg collect.Config) string {
	switch {
	case !cfg.Cluster:
		return "metrics read directly (--url, --from-file)"
	case cfg.Discover.Namespace == "":
		return "all namespaces"
	}
	return "namespace " + cfg.Discover.Namespace
}
