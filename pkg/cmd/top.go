// This file implements `kubectl ctrldiag top`: the queue table of `queues`, refreshed in
// place on a terminal, or printed once per refresh with a timestamp elsewhere.

package cmd

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
)

const topLong = `Watch every workqueue of the targets: the table of kubectl ctrldiag queues, refreshed every
--refresh (2s), worst first. Rates and latencies are over the time since the refresh before.
A target that fails shows as an ERROR row until it answers again.

Targets are those of queues (-n, -A, TARGET arguments, --url; not --from-file). Targets found
in the cluster are looked for again every --rediscover (30s; 0 never), so that a rollout's new pods
appear and the old ones leave. STATUS is that of queues: kubectl ctrldiag explain status.
WAIT SLO is the queue-wait objective (p99 <= --slo queue-wait-p99, 1s) judged over each
refresh's window as report judges it: breaks, holds, unknown, or not-judged when the window
holds too few waits for a p99 (100); json/yaml give it as queueWait.

On a terminal the view is full screen, with sparklines of each queue's depth and adds/s.
Keys: q quit; s change the sort; / filter rows; up and down select; Enter details of a
queue, Esc back; ? help. Colour is used only on a terminal, never when NO_COLOR is set.
Elsewhere (a pipe, a file), and with -o, --no-headers or --sort-by, each refresh prints as
queues does, as kubectl get -w: one table under a line with its time (table, wide,
custom-columns), one QueueList document (json; yaml, "---" between; the time in .time), or
a template's output per refresh. --count N stops after N refreshes.

With --prometheus the sparklines start with the minutes before the session, read from that
Prometheus server; the targets are still read live. Details: docs/guide/top.md.

Exit codes: 0 quit or --count reached; 1 no target found; 2 invalid flags or arguments.`

const topExample = `  # Watch the queues of the operators in namespace ops
  kubectl ctrldiag top -n ops

  # The same, the sparklines starting with the last minutes held by Prometheus
  kubectl ctrldiag top -n ops --prometheus svc/monitoring/prometheus-k8s:9090

  # One endpoint, refreshed every second, 10 tables into a file
  kubectl ctrldiag top --url http://localhost:8080/metrics --refresh 1s \
    --count 10 > top.log

  # One JSON line per refresh: its time and each queue's depth, shallowest first
  kubectl ctrldiag top -n ops --sort-by '{.depth}' -o json \
    | jq -c '[.time, (.items[] | [.queue, .depth])]'`

// NewTopCmd returns the top command.
func NewTopCmd(g *cli.GlobalFlags, streams genericiooptions.IOStreams) *cobra.Command {
	o := NewTopOptions(g, streams)
	cmd := &cobra.Command{
		Use:               "top [TARGET...] [flags]",
		Short:             "Watch each workqueue's depth, rates and status, refreshed",
		Long:              topLong,
		Example:           topExample,
		ValidArgsFunction: cli.CompletePods(g),
		RunE:              runOptions(o),
	}
	o.Sources.AddFlags(cmd.Flags(), false)
	o.Thresholds.AddFlags(cmd.Flags())
	o.Sources.RegisterCompletions(cmd)
	o.Thresholds.RegisterCompletions(cmd)
	cmd.Flags().DurationVar(&o.Refresh, "refresh", o.Refresh, "Time between refreshes")
	cmd.Flags().DurationVar(&o.Rediscover, "rediscover", o.Rediscover, "Find the targets of -n/-A again this often during the session (and at the refresh after a target starts failing), so that a rollout's new pods appear and deleted ones leave; 0: never")
	cmd.Flags().IntVar(&o.Count, "count", 0, "Stop after this many refreshes (0: until interrupted)")
	cmd.Flags().StringVarP(&o.Output, "output", "o", "", "Print each refresh, also on a terminal: table, wide, json, yaml, name, jsonpath=TEMPLATE, go-template=TEMPLATE, custom-columns=SPEC (and their -file= forms, as kubectl) (default: table)")
	cmd.Flags().BoolVar(&o.NoHeaders, "no-headers", false, "Print each table (and -o custom-columns) without its time line and header line")
	cmd.Flags().StringVar(&o.SortBy, "sort-by", "", "Order each refresh's rows by a JSONPath into each item of -o json, as kubectl (e.g. '.depth'; numbers by value, rows without it last)")
	cli.CompleteFlag(cmd, "output", cli.CompleteFormats(topFormats...))
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
