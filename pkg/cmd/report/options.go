package report

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/capacity"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/exitcode"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/failonflag"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/globals"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/progress"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/sourceflags"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/stderrline"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/thresholdflags"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/engine"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/failon"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/open"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/render"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/report"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/suppress"
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
	Args                []string

	// Set by Validate.
	cfg     engine.ReportConfig
	env     engine.Env
	globals *globals.Flags
	genericiooptions.IOStreams
}

// NewOptions returns the options with report's defaults: the API server is read too.
func NewOptions(g *globals.Flags, streams genericiooptions.IOStreams) *Options {
	o := &Options{globals: g, IOStreams: streams, Sources: sourceflags.Defaults(), FailOn: failonflag.New(failon.Findings)}
	o.Sources.IncludeAPIServer = true
	return o
}

// Complete takes the TARGET arguments.
func (o *Options) Complete(args []string) error {
	o.Args = args
	return nil
}

// Validate checks the flags and builds the configuration.
func (o *Options) Validate() error {
	args := o.Args
	if err := render.ValidateFormat(o.Output, Formats...); err != nil {
		return exitcode.UsageError("%v", err)
	}
	if err := o.FailOn.Validate(); err != nil {
		return err
	}
	th, err := o.Thresholds.Thresholds()
	if err != nil {
		return err
	}
	if o.Since < 0 {
		return exitcode.UsageError("--since must be positive, got %s", o.Since)
	}
	if o.Since > 0 {
		th.Since = findings.Duration(o.Since)
	}
	if o.TargetQueueWait < 0 {
		return exitcode.UsageError("--target-queue-wait must be positive, got %s", o.TargetQueueWait)
	}
	if o.TargetQueueWait > 0 {
		th.TargetQueueWait = findings.Duration(o.TargetQueueWait)
	}
	o.cfg = engine.ReportConfig{Thresholds: th}
	for _, kv := range o.Workers {
		queue, n, err := parseWorkers(kv)
		if err != nil {
			return exitcode.UsageError("%v", err)
		}
		if o.cfg.Workers == nil {
			o.cfg.Workers = map[string]float64{}
		}
		o.cfg.Workers[queue] = n
	}
	for _, r := range o.GenerationResources {
		gv, err := parseResource(r)
		if err != nil {
			return exitcode.UsageError("%v", err)
		}
		o.cfg.Generations = append(o.cfg.Generations, gv)
	}
	for _, ck := range o.ControllerKinds {
		name, gk, err := objects.ParseOverride(ck)
		if err != nil {
			return exitcode.UsageError("%v", err)
		}
		if o.cfg.ControllerKinds == nil {
			o.cfg.ControllerKinds = map[string]schema.GroupKind{}
		}
		o.cfg.ControllerKinds[name] = gk
	}
	if o.MemoryLimit != "" {
		q, err := resource.ParseQuantity(o.MemoryLimit)
		if err != nil || q.Sign() <= 0 {
			return exitcode.UsageError("--memory-limit %q is not a positive quantity like 256Mi", o.MemoryLimit)
		}
		o.cfg.MemoryLimitBytes = q.AsApproximateFloat64()
	}
	if o.cfg.Ignore, err = suppress.Load(o.IgnoreFile); err != nil {
		return exitcode.UsageError("%v", err)
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
	r, err := open.Open(spec, sourceflags.Inputs(o.globals, o.In, o.ErrOut))
	if err != nil {
		return err
	}
	o.cfg.Read, o.cfg.Scope, o.env = r.Read, r.Scope, r.Env(progress.To(o.ErrOut))
	return nil
}

// parseWorkers reads QUEUE=N, N a whole number from 1 to capacity.MaxWorkers.
func parseWorkers(kv string) (string, float64, error) {
	queue, v, ok := strings.Cut(kv, "=")
	n, err := strconv.Atoi(v)
	if !ok || queue == "" || err != nil || n < 1 {
		return "", 0, fmt.Errorf("--workers %q: use QUEUE=N with N a positive whole number, e.g. deployment=5", kv)
	}
	if n > capacity.MaxWorkers {
		return "", 0, fmt.Errorf("--workers %q: %d workers is more than any process runs; give N from 1 to %d", kv, n, capacity.MaxWorkers)
	}
	return queue, float64(n), nil
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
	res, err := engine.Report(ctx, o.cfg, o.env)
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
	if err := render.Write(o.Out, o.Output, r); err != nil {
		return err
	}
	if r.Summary.Read == 0 {
		return errors.New("no target could be read: see the scrape-failed findings")
	}
	if o.Failed(r) {
		return &exitcode.ExitCodeError{Code: exitcode.Findings}
	}
	return nil
}

// Engine is the configuration and the environment Validate built, for a command that runs
// the report engine itself (snapshot).
func (o *Options) Engine() (engine.ReportConfig, engine.Env) { return o.cfg, o.env }

// Failed reports whether a finding of the report reaches --fail-on (suppressed findings are
// no longer among them).
func (o *Options) Failed(r report.Report) bool { return o.FailOn.Fails(r.Findings) }
