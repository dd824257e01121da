// Package top implements `kubectl ctrldiag top`: the queue table of `queues`, refreshed in
// place on a terminal, or printed once per refresh with a timestamp elsewhere.
package top

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/completion"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/globals"
)

const long = `Watch every workqueue of the targets: the table of kubectl ctrldiag queues, refreshed every
--refresh (2s), worst first. Each refresh reads every target once; rates and window quantiles
are over the time since the refresh before (the first refresh has none: "window: lifetime").
The connections (the API server's, HTTP keep-alives, each pod's port-forward) are kept from one
refresh to the next. A target that fails becomes an ERROR row until it answers again.

Targets found by discovery (-n, -A) are found again during the session, so that a rollout's
new pods appear and the old ones leave: every --rediscover (30s; 0 never), and at the refresh
after a target starts failing (its pod may have been deleted). Each time costs the LISTs of
one discovery (pods, Services, ServiceMonitors and PodMonitors of the namespace, or of all)
and access reviews only for namespaces not seen before. A new target's first frame has no
rates, as any first frame. A target no longer found leaves the table and its port-forward is
closed; the port-forwards of the pods still there are reused. A pod still running but no
longer ready keeps its row (an ERROR row when it does not answer). TARGET arguments and --url
were named: they are read as they are, never found again.

As in queues, the standby replicas of a workload (pods that do not lead) whose queues are empty
or absent are folded into the leader's rows, each keeping a STANDBY row. When the metrics do
not say who leads, the Leases of the namespace are listed once per discovery of the targets.

Sources are those of kubectl ctrldiag queues (see its help): the cluster in the namespace (-n)
or everywhere (-A), TARGET arguments (pod/NAME, deploy/NAME, svc/NAME), or --url. Saved pages
(--from-file) do not change and are refused. STATUS and its thresholds are those of queues.

History: with --prometheus URL (or svc/NAMESPACE/NAME:PORT, with its --prometheus-* flags,
--clusters and --cluster-label) the targets are still read live at every refresh; the server
only gives the minutes before the session, so that the sparklines start filled. Before the
first frame it is asked two range queries, whatever the number of targets: each queue's depth
(workqueue_depth) and adds/s (rate of workqueue_adds_total over two steps, at least 1m), at the
11 points before the first refresh. Their step is --refresh, but at least 15s (the usual scrape
interval): the points before the session may be further apart than the session's. Series
match pods by their namespace and pod labels, --url targets by their instance label
(host:port), queues by their name label; the API server and services get no history. When the
server fails or takes more than 10s, the view starts with empty sparklines and a warning.
(Reading every frame from the server instead would show nothing newer than its last scrape.)

On a terminal the view is full screen, with sparklines of each queue's depth and adds/s over
the session. Keys:
  q, Ctrl-C   quit (the terminal is left as it was)
  s           cycle the sort: status (worst first), depth, adds/s, name
  /           filter the rows by a text in TARGET or QUEUE (Enter keeps it, Esc clears it)
  up, down    move the selection; Enter opens the details of a queue (figures and findings),
              Esc goes back
  ?           help
Colour is used only on a terminal, and never when NO_COLOR is set.

Elsewhere (a pipe, a file) each refresh prints one table under a line with its time and window,
as kubectl get -w does; --count N stops after N refreshes. Tables have no sparklines, so
--prometheus is not asked there.

Exit codes: 0 quit or --count reached; 1 no target found; 2 invalid flags or arguments.`

const example = `  # Watch the queues of the operators in namespace ops
  kubectl ctrldiag top -n ops

  # The same, the sparklines starting with the last minutes held by Prometheus
  kubectl ctrldiag top -n ops --prometheus svc/monitoring/prometheus-k8s:9090

  # One endpoint, refreshed every second, 10 tables into a file
  kubectl ctrldiag top --url http://localhost:8080/metrics --refresh 1s --count 10 > top.log`

// NewCmd returns the top command.
func NewCmd(g *globals.Flags, streams genericiooptions.IOStreams) *cobra.Command {
	o := NewOptions(g, streams)
	cmd := &cobra.Command{
		Use:               "top [TARGET...] [flags]",
		Short:             "Watch every workqueue's depth, rates and status, refreshed in place",
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
	o.Sources.AddFlags(cmd.Flags(), false)
	o.Thresholds.AddFlags(cmd.Flags())
	o.Sources.RegisterCompletions(cmd)
	o.Thresholds.RegisterCompletions(cmd)
	cmd.Flags().DurationVar(&o.Refresh, "refresh", o.Refresh, "Time between refreshes")
	cmd.Flags().DurationVar(&o.Rediscover, "rediscover", o.Rediscover, "Find the targets of -n/-A again this often during the session (and at the refresh after a target starts failing), so that a rollout's new pods appear and deleted ones leave; 0: never")
	cmd.Flags().IntVar(&o.Count, "count", 0, "Stop after this many refreshes (0: until interrupted)")
	// The targets are read live whatever the flags: a Prometheus server only gives history.
	for name, usage := range map[string]string{
		"prometheus": "Start the sparklines with the queues' history from a server that speaks the Prometheus HTTP API: its base URL, e.g. http://prometheus:9090, or svc/NAMESPACE/NAME:PORT through the API server's service proxy (the targets are still read live)",
		"clusters":   "With --prometheus: take the history only from these clusters (values of --cluster-label)",
	} {
		cmd.Flags().Lookup(name).Usage = usage
	}
	// Saved pages and an instant in the past (--at) are refused: keep them out of its help.
	for _, name := range []string{"from-file", "at"} {
		if f := cmd.Flags().Lookup(name); f != nil {
			f.Hidden = true
		}
	}
	return cmd
}
