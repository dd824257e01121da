// This file implements `kubectl ctrldiag queues`: one row per workqueue of every target,
// with its depth, rates, latency quantiles and a status, worst first.

package cmd

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
)

const queuesLong = `Show one row per workqueue of every target: how deep it is, how fast items arrive and are
retried, how long they wait and are worked on, and whether it keeps up. Rows are sorted worst
first.

Targets: the controller pods of the namespace (-n) or of all (-A), or the pods you name
(pod/NAME, deploy/NAME, svc/NAME; see kubectl ctrldiag targets -h). Or a metrics endpoint
(--url, with --token or --token-file for a bearer token), or saved pages (--from-file; "-"
reads stdin; --from-file BEFORE,AFTER gives two pages of one target taken in that order).

Each live target is read twice, --interval apart (default 5s): rates and latencies are over
that window. --interval 0 reads once: no rates, latencies since the process started. The
WINDOW column says which. --timeout, --concurrency and --deadline bound the reading.

STATUS says whether a queue keeps up; it comes from the same checks as kubectl ctrldiag
report, so the two agree. What each status means: kubectl ctrldiag explain status.
Thresholds (--threshold name=value, --thresholds FILE): kubectl ctrldiag explain thresholds.

The table keeps to 80 columns, or a terminal's own width: the columns that do not fit are
left out, LONGEST, UNFINISHED and RETRIES/s first, TARGET when every row is of one target,
then WINDOW and WORK p99. -o wide shows them all and adds workers, depth by priority, errors/s,
medians, the leader and the reason; -o custom-columns picks.

Standby replicas that run no controllers fold into one STANDBY row per workload. Columns,
replicas and leaders: docs/guide/queues.md; the JSON schema: docs/json.md.

Exit codes: 0 every target read and printed; 1 a target failed (the rest is printed, the
failed show as ERROR rows and on stderr, as kubectl get), or every one did; 2 invalid flags or
arguments.`

const queuesExample = `  # The queues of a controller-runtime manager's endpoint, rates over 5 seconds
  kubectl ctrldiag queues --url http://localhost:8080/metrics

  # A kubebuilder v4 HTTPS endpoint with a ServiceAccount token
  kubectl ctrldiag queues --url https://localhost:8443/metrics \
    --token "$(kubectl create token metrics-reader -n system)" \
    --insecure-skip-tls-verify-metrics

  # Two saved pages of kube-controller-manager, 10 seconds apart, as JSON
  kubectl ctrldiag queues --from-file kcm-1.prom,kcm-2.prom --interval 10s \
    -o json

  # One page from stdin: lifetime quantiles
  kubectl get --raw /metrics | kubectl ctrldiag queues --from-file - -o wide`

// NewQueuesCmd returns the queues command.
func NewQueuesCmd(g *cli.GlobalFlags, streams genericiooptions.IOStreams) *cobra.Command {
	o := NewQueuesOptions(g, streams)
	cmd := &cobra.Command{
		Use:               "queues [TARGET...] [flags]",
		Short:             "Show each workqueue's depth, rates, latency, status, worst first",
		Long:              queuesLong,
		Example:           queuesExample,
		ValidArgsFunction: cli.CompletePods(g),
		RunE:              runOptions(o),
	}
	o.Sources.AddFlags(cmd.Flags(), true)
	o.Thresholds.AddFlags(cmd.Flags())
	cmd.Flags().StringVarP(&o.Output, "output", "o", "", "Output format: table, wide, json, yaml, name, jsonpath=TEMPLATE, go-template=TEMPLATE, custom-columns=SPEC (and their -file= forms, as kubectl) (default: table)")
	cmd.Flags().BoolVar(&o.NoHeaders, "no-headers", false, "Print the table (and -o custom-columns) without its header line")
	cmd.Flags().StringVar(&o.SortBy, "sort-by", "", "Order the rows by a JSONPath into each item of -o json, as kubectl (e.g. '.depth'; numbers by value, rows without it last)")
	o.Sources.RegisterCompletions(cmd)
	o.Thresholds.RegisterCompletions(cmd)
	cli.CompleteFlag(cmd, "output", cli.CompleteFormats(queuesFormats...))
	return cmd
}
