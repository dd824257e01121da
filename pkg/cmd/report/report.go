// Package report implements `kubectl ctrldiag report`: the usual hand-written diagnosis (grep
// the metrics page, kubectl top, a list of tuning advice), automated: controller pods,
// workqueue backlog, cache sync lag, event processing, memory and CPU, and findings with
// recommendations, as text, json, yaml, markdown, html, junit or GitHub workflow commands.
package report

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/completion"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/globals"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/suppress"
)

const long = `Diagnose the controllers of a namespace (-n) or of the cluster (-A): what people do by hand
with kubectl get --raw .../metrics | grep workqueue, kubectl top and a list of tuning advice,
automated. Seven sections, each computed from two samples of every target's metrics taken
--interval apart (default 5s):

  1. Controller pods: phase, readiness, restarts, age, last termination reason (OOMKilled).
  2. Workqueue depth and backlog trend between the samples, and the time to drain it.
  3. Cache sync lag, by the first method that applies: informer store resource version
     against the API server's watch cache (client-go >= 1.36 named informers) with queued
     events and handler latency; objects whose status.observedGeneration trails
     metadata.generation (Deployments, StatefulSets, DaemonSets, the reference Workloads and
     --generation-resource); metrics named cache_sync_lag, as exposed.
  4. Event processing: adds, completions and retries per second, queue and work latency
     p50/p90/p99, reconcile results.
  5. Memory and CPU: resident memory and Go heap against the container's requests and limits,
     metrics.k8s.io usage when served, OOMKilled history.
  6. Objects the controllers reconcile: per kind (named after the controller, as
     controller-runtime does, or by --controller-kind NAME=GROUP/KIND), how many failed by
     reason (Ready=False, Stalled=True) with examples, trail their spec, or wait on finalizers.
  7. Findings, worst first, each with its evidence and the knob to turn (see README for every
     code). Thresholds: --threshold name=value (repeatable) or --thresholds FILE (YAML).

A capacity section models every queue with enough completions in the window (M/M/c, Erlang
C, corrected for the spread of reconcile times): offered load, utilisation, the queue wait it
predicts beside the measured one, and the workers needed for a p99 wait under
--target-queue-wait; --workers QUEUE=N gives the workers where no metric says them. The
finding under-provisioned (CD217) carries the number where the workers are the bottleneck.

Targets are found as in 'kubectl ctrldiag targets' (the API server's own metrics are
included; --include-apiserver=false leaves them out), or given with --url / --from-file.

In CI: -o junit writes a test suite per target and a test case per check judged for it (a
failure per warning or critical finding), -o github a workflow command per warning or critical
finding. Findings a team accepts for now are suppressed, with a reason, by --ignore-file (YAML:
ignore: [{check, namespace, controller, reason, expires}]; .ctrldiag-ignore.yaml of the current
folder when present) or by the annotation ctrldiag.io/ignore: "CD208,CD211" on a workload's
pods: they no longer count for --fail-on and are listed apart. See README, "In CI".

Exit codes (like kubectl diff, usable in CI):
  0  the report was printed and no finding reached --fail-on (default none: always 0)
  1  the report could not be made (kubeconfig, RBAC, no target could be read)
  2  invalid flags or arguments, or an ignore file that is not valid (the line is named)
  3  the report was printed and a finding reached --fail-on (warning: any warning or
     critical finding; critical: a critical one)`

const example = `  # Diagnose the controllers of a namespace, as text
  kubectl ctrldiag report -n my-operator-system

  # Everything, as a self-contained HTML page
  kubectl ctrldiag report -A -o html > report.html

  # In CI: fail on any warning, with the result as JUnit XML for the test view
  kubectl ctrldiag report -n my-operator-system --fail-on warning -o junit > ctrldiag-junit.xml

  # How many workers kube-controller-manager's deployment queue needs (5 today) for a p99
  # wait under 500ms, over a 30s window
  kubectl ctrldiag report -n kube-system --workers deployment=5 --target-queue-wait 500ms --interval 30s

  # A controller on your laptop, with its container's memory limit
  kubectl ctrldiag report --url http://localhost:8080/metrics --memory-limit 256Mi`

// NewCmd returns the report command.
func NewCmd(g *globals.Flags, streams genericiooptions.IOStreams) *cobra.Command {
	o := NewOptions(g, streams)
	cmd := &cobra.Command{
		Use:               "report [TARGET...] [flags]",
		Short:             "Diagnose controllers: pods, backlog, cache sync lag, events, memory, findings",
		Long:              long,
		Example:           example,
		ValidArgsFunction: completion.Pods(g),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.Complete(args); err != nil {
				return err
			}
			if err := o.Validate(); err != nil {
				return err
			}
			cmd.SilenceUsage = true
			return o.Run(cmd.Context())
		},
	}
	o.AddFlags(cmd.Flags())
	o.RegisterCompletions(cmd)
	return cmd
}

// Formats are the values of report's -o, and snapshot's: "" is text.
var Formats = []string{"", "text", "json", "yaml", "markdown", "html", "junit", "github"}

// RegisterCompletions offers the values of the flags of AddFlags to shell completion on cmd.
func (o *Options) RegisterCompletions(cmd *cobra.Command) {
	o.Sources.RegisterCompletions(cmd)
	o.FailOn.RegisterCompletion(cmd)
	o.Thresholds.RegisterCompletions(cmd)
	completion.Register(cmd, "output", completion.Formats(Formats...))
}

// AddFlags registers report's flags; snapshot reads with the same ones.
func (o *Options) AddFlags(f *pflag.FlagSet) {
	o.Sources.AddFlags(f, true)
	f.StringVarP(&o.Output, "output", "o", "", "Output format: text (default), json, yaml, markdown, html, junit (a test suite per target, a test case per check) or github (workflow commands)")
	o.FailOn.AddFlag(f)
	o.Thresholds.AddFlags(f)
	f.StringArrayVar(&o.GenerationResources, "generation-resource", nil, "Also check generation lag of RESOURCE.GROUP/VERSION (e.g. widgets.example.com/v1; repeatable)")
	f.StringArrayVar(&o.ControllerKinds, "controller-kind", nil, "The controller NAME reconciles GROUP/KIND, where its name does not say it: NAME=GROUP/KIND (NAME=KIND for the core group; repeatable)")
	f.StringVar(&o.MemoryLimit, "memory-limit", "", "Memory limit to compare --url and --from-file targets against (e.g. 256Mi)")
	f.StringVar(&o.IgnoreFile, "ignore-file", "", "Accepted findings: a YAML file of entries {check, namespace, controller, reason, expires} (default "+suppress.DefaultFile+" in the current folder when present; none reads nothing)")
	f.DurationVar(&o.TargetQueueWait, "target-queue-wait", 0, "The p99 queue wait the capacity section sizes the workers for (default 1s; the threshold targetQueueWait)")
	f.StringArrayVar(&o.Workers, "workers", nil, "Workers of a queue whose metrics do not say it (kube-controller-manager), for the capacity model: QUEUE=N (repeatable; overrides controller_runtime_max_concurrent_reconciles)")
	f.DurationVar(&o.Since, "since", 0, "Restarts and OOMKills that ended longer ago are history (info), not a warning (default 1h; the threshold since)")
}
