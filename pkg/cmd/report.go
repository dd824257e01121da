// This file implements `kubectl ctrldiag report`: the usual hand-written diagnosis (grep
// the metrics page, kubectl top, a list of tuning advice), automated: controller pods,
// workqueue backlog, cache sync lag, event processing, memory and CPU, and findings with
// recommendations, as text, json, yaml, markdown, html, junit or GitHub workflow commands.

package cmd

import (
	"slices"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/suppress"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/printer"
)

const reportLong = `Diagnose the controllers of a namespace (-n) or of the cluster (-A): whether they keep up,
and if not, why and what to change. Every target is read twice, --interval apart (default
5s), and the report has seven sections: controller pods; queue depth and backlog trend;
cache sync lag; event processing (rates, latencies, reconcile results); memory and CPU; the
objects the controllers reconcile; and findings, worst first, each with its evidence and
what to change. The text keeps to 80 columns (a terminal's own width on a terminal): the
tables name targets by pod and leave out the columns that do not fit, and a finding's why
is kubectl ctrldiag explain CODE's; -o wide prints them all.

A capacity section says how many workers each queue with enough items in the window needs
for the wait you want (--target-queue-wait, default 1s): kubectl ctrldiag explain capacity.

What a finding means: kubectl ctrldiag explain CODE (e.g. CD208); all of them: kubectl
ctrldiag explain. Thresholds (--threshold name=value, --thresholds FILE): kubectl ctrldiag
explain thresholds. Targets are found as by kubectl ctrldiag targets, or given with --url or
--from-file.

In CI: -o junit or -o github, and --fail-on to fail the job. Findings a team accepts for now
are suppressed with a reason by --ignore-file, or by the pod annotation ctrldiag.io/ignore
(e.g. "CD208,CD211"). See docs/ci.md.

Exit codes: 0 the report was printed and no finding reached --fail-on (default: always 0);
1 the report could not be made (kubeconfig, permissions, no target could be read); 2 invalid
flags or arguments, or an ignore file that is not valid; 3 a finding reached --fail-on.`

const reportExample = `  # Diagnose the controllers of a namespace, as text
  kubectl ctrldiag report -n my-operator-system

  # Everything, as a self-contained HTML page
  kubectl ctrldiag report -A -o html > report.html

  # In CI: fail on any warning, with the result as JUnit XML for the test view
  kubectl ctrldiag report -n my-operator-system --fail-on warning -o junit \
    > ctrldiag-junit.xml

  # How many workers kube-controller-manager's deployment queue needs (5 today)
  # for a p99 wait under 500ms, over a 30s window
  kubectl ctrldiag report -n kube-system --workers deployment=5 \
    --target-queue-wait 500ms --interval 30s`

// NewReportCmd returns the report command.
func NewReportCmd(g *cli.GlobalFlags, streams genericiooptions.IOStreams) *cobra.Command {
	o := NewReportOptions(g, streams)
	cmd := &cobra.Command{
		Use:               "report [TARGET...] [flags]",
		Short:             "Diagnose controllers: pods, backlog, cache sync, events, findings",
		Long:              reportLong,
		Example:           reportExample,
		ValidArgsFunction: cli.CompletePods(g),
		RunE:              runOptions(o),
	}
	o.AddFlags(cmd.Flags())
	o.RegisterCompletions(cmd)
	return cmd
}

// ReportFormats are the values of report's -o, and snapshot's: "" is text.
var ReportFormats = slices.Concat([]string{"", "text", "wide", "json", "yaml", "markdown", "html", "junit", "github"}, printer.TemplateFormats)

// RegisterCompletions offers the values of the flags of AddFlags to shell completion on cmd.
func (o *ReportOptions) RegisterCompletions(cmd *cobra.Command) {
	o.Sources.RegisterCompletions(cmd)
	o.FailOn.RegisterCompletion(cmd)
	o.Thresholds.RegisterCompletions(cmd)
	cli.CompleteFlag(cmd, "output", cli.CompleteFormats(ReportFormats...))
}

// AddFlags registers report's flags; snapshot reads with the same ones.
func (o *ReportOptions) AddFlags(f *pflag.FlagSet) {
	o.Sources.AddFlags(f, true)
	f.StringVarP(&o.Output, "output", "o", "", "Output format: text (default: in 80 columns, or the terminal's width), wide (text with every column, whole names and each finding's why), json, yaml, markdown, html, junit (a test suite per target, a test case per check), github (workflow commands), jsonpath=TEMPLATE or go-template=TEMPLATE (and their -file= forms, as kubectl)")
	o.FailOn.AddFlag(f)
	o.Thresholds.AddFlags(f)
	f.StringArrayVar(&o.GenerationResources, "generation-resource", nil, "Also check generation lag of RESOURCE.GROUP/VERSION (e.g. widgets.example.com/v1; repeatable)")
	f.StringArrayVar(&o.ControllerKinds, "controller-kind", nil, "The controller NAME reconciles GROUP/KIND, where its name does not say it: NAME=GROUP/KIND (NAME=KIND for the core group; repeatable)")
	f.StringVar(&o.MemoryLimit, "memory-limit", "", "Memory limit to compare --url and --from-file targets against (e.g. 256Mi)")
	f.StringVar(&o.IgnoreFile, "ignore-file", "", "Accepted findings: a YAML file of entries {check, namespace, controller, reason, expires} (default "+suppress.DefaultFile+" in the current folder when present; none reads nothing)")
	f.DurationVar(&o.TargetQueueWait, "target-queue-wait", 0, "The p99 queue wait the capacity section sizes the workers for (default 1s; the threshold targetQueueWait)")
	f.StringArrayVar(&o.Workers, "workers", nil, "Workers of a queue whose metrics do not say it (kube-controller-manager), for the capacity model: QUEUE=N (repeatable; overrides controller_runtime_max_concurrent_reconciles)")
	f.BoolVar(&o.NoProfile, "no-profile", false, "Do not read the goroutine dump (/debug/pprof/goroutine) of targets whose workers are stuck, slow or saturated, or of controllers whose workers only it counts")
	f.BoolVar(&o.NoLogs, "no-logs", false, "Do not read the recent log of the controllers' containers (pods/log of the leader's pod: failing objects, client-side throttling waits, panics)")
	f.Int32Var(&o.PprofPort, "pprof-port", 0, "The pods' port that serves net/http/pprof (default: a container port named pprof, profiler or debug, or the address in the container's arguments)")
	f.DurationVar(&o.Since, "since", 0, "Restarts and OOMKills that ended longer ago are history (info), not a warning (default 1h; the threshold since)")
}
