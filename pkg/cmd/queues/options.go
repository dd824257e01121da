package queues

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/exitcode"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/globals"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/progress"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/sourceflags"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/collect"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printers"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/render"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/replicas"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sample"
)

// Options holds the flag values of the queues command.
type Options struct {
	Sources sourceflags.Flags
	Output  string
	Args    []string

	// Set by Validate.
	config collect.Config

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
	cfg, err := o.Sources.Config(o.globals, o.Args, o.In)
	if err != nil {
		return err
	}
	o.config = cfg
	return nil
}

// Run finds and samples the targets, computes the queue figures and prints them.
func (o *Options) Run(ctx context.Context) error {
	if ctx == nil {
		ctx = context.Background()
	}
	plan, err := collect.Build(ctx, o.config, o.Sources.Kube(o.globals))
	if err != nil {
		return err
	}
	if len(plan.Sources) == 0 && len(plan.Failed) == 0 {
		return errors.New(nothingFound(o.config, plan))
	}
	line := progress.Start(o.ErrOut, progress.Reading(len(plan.Sources), o.Sources.Interval), len(plan.Sources))
	results := sample.Collect(ctx, plan.Sources, sample.Options{
		Interval: o.Sources.Interval, Timeout: o.Sources.Timeout, Concurrency: o.Sources.Concurrency, Keep: health.WantedQueues,
		Deadline: o.Sources.Deadline, Done: line.Step,
	})
	line.Stop()
	stats, errs, leaders := Analyse(results, health.DefaultThresholds())
	stats, groups := foldStandbys(ctx, plan, results, stats, leaders)
	for _, f := range plan.Failed {
		errs = append(errs, render.TargetError{Target: f.Target.ID(), Error: f.Err.Error()})
	}
	for _, w := range slices.Concat(plan.Warnings, mistypedWarnings(results)) {
		fmt.Fprintf(o.ErrOut, "warning: %s\n", w)
	}
	list := render.NewQueueList(stats, errs)
	list.Replicas = groups
	failed := len(plan.Failed)
	for _, r := range results {
		if len(r.Samples) == 0 {
			failed++
		}
	}
	if failed == len(results)+len(plan.Failed) {
		msgs := make([]string, 0, len(errs))
		for _, e := range errs {
			msgs = append(msgs, "  "+e.Target+": "+e.Error)
		}
		return errors.New("no target could be read:\n" + strings.Join(msgs, "\n"))
	}
	for _, e := range errs {
		fmt.Fprintf(o.ErrOut, "error: %s: %s\n", e.Target, e.Error)
	}
	if printers.Structured(o.Output) {
		return printers.Write(o.Out, o.Output, list)
	}
	return render.QueueTable(o.Out, list, o.Output == "wide")
}

// nothingFound explains an empty discovery.
func nothingFound(cfg collect.Config, plan *collect.Plan) string {
	where := "in namespace " + cfg.Discover.Namespace
	if cfg.Discover.Namespace == "" {
		where = "in any namespace"
	}
	msg := "no controller metrics endpoint found " + where
	if cfg.Discover.Selector != "" {
		msg += " with selector " + cfg.Discover.Selector
	}
	if len(plan.Skipped) > 0 {
		msg += fmt.Sprintf(" (%d pods skipped: not ready)", len(plan.Skipped))
	}
	return msg + ": name a target (pod/NAME, deploy/NAME, svc/NAME) with --port, add --include-apiserver, or look in another namespace (-n, -A); `kubectl ctrldiag targets` shows what discovery sees"
}

// Analyse turns sampling results into queue figures, sorted worst first, the errors of the
// targets that failed, and the leader_election_master_status of each target read (NaN when
// it has none).
func Analyse(results []sample.Result, th health.Thresholds) ([]health.QueueStats, []render.TargetError, map[string]float64) {
	var stats []health.QueueStats
	var errs []render.TargetError
	leaders := map[string]float64{}
	for _, r := range results {
		if r.Err != nil {
			errs = append(errs, render.TargetError{Target: r.Target, Error: r.Err.Error()})
		}
		switch len(r.Samples) {
		case 1:
			cur := health.FromFamilies(r.Samples[0].Families, r.Samples[0].Time)
			stats = append(stats, health.Queues(r.Target, nil, cur, 0, th)...)
			leaders[r.Target] = replicas.LeaderStatus(cur)
		case 2:
			prev := health.FromFamilies(r.Samples[0].Families, r.Samples[0].Time)
			cur := health.FromFamilies(r.Samples[1].Families, r.Samples[1].Time)
			stats = append(stats, health.Queues(r.Target, prev, cur, r.Window, th)...)
			leaders[r.Target] = replicas.LeaderStatus(cur)
		}
	}
	health.Sort(stats)
	return stats, errs, leaders
}
