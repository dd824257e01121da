// Package queues implements `kubectl ctrldiag queues`: one row per workqueue of every target,
// with its depth, rates, latency quantiles and a status, worst first.
package queues

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/completion"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/globals"
)

const long = `Show one row per workqueue of every target: how deep it is, how fast items arrive and
are retried, how long they wait and are worked on, and whether it keeps up. Rows are sorted
worst first.

Sources: by default the cluster, in the namespace (-n) or everywhere (-A): TARGET arguments
(pod/NAME, deploy/NAME, svc/NAME), else discovery (see kubectl ctrldiag targets --help), and
--include-apiserver (on with -A without -l). Also:
  --url URL         a metrics endpoint over http or https (repeatable). --token/--token-file
                    send a bearer token (never printed); --metrics-ca-file verifies the
                    certificate, --insecure-skip-tls-verify-metrics skips verification.
  --from-file PATH  a saved page (repeatable; "-" reads stdin; .gz pages are fine).
                    --from-file BEFORE,AFTER gives two saved pages of the same target, taken in
                    that order: rates and window quantiles come from them. Their time apart is
                    read from a "# ctrldiag-sample-time: RFC3339" first line when both have it,
                    else --interval is assumed. Save such a page with:
                      (echo "# ctrldiag-sample-time: $(date -u +%FT%TZ)"; kubectl get --raw /metrics) > a.prom

Sampling: live targets are read twice, --interval apart (default 5s); rates and quantiles
are over that window. --interval 0 reads once: no rates, quantiles since process start; the
output says which ("window: lifetime" or e.g. "window: 5s"). A single saved page is always
"lifetime".

Bounds: --timeout per page (10s), --concurrency targets at once (8), and --deadline (2m) for
the whole reading: a target not read by then is an error saying "overall deadline reached",
the others keep their rows. On a terminal a progress line shows on stderr after a second.

Columns: DEPTH ready items (summed over priorities; items waiting out a delay are not
counted). ADDS/s, RETRIES/s (retries count every delayed or rate-limited requeue, not only
errors). QUEUE p99 time items wait for a worker; WORK p99 time a worker spends on an item.
UNFINISHED seconds of work in flight; LONGEST age of the oldest in-flight item. A quantile
is interpolated in its bucket and capped by what the histogram's sum allows; one above the
highest finite bucket reads ">= 100ms" (json: workP99AtLeast and the like). -o wide adds
WORKERS (active/max, controller-runtime), BY PRIORITY (depth by priority on controller-runtime's
priority queue, highest first, e.g. 0:250,-100:40: events enter at 0, the initial list and
unchanged resyncs at -100; "-" on a plain queue), ERRORS/s (reconcile errors), p50s, WORK MEAN
(sum/count over the same window), LEADER, REASON.

Replicas and leaders: every ready replica is read. Replicas of one workload are pods in one
namespace with the same controlling owner (deployment/NAME, statefulset/NAME, ...), or, for
pods without an owner, the same label app.kubernetes.io/name, else app, else control-plane.
The leader is the replica whose leader_election_master_status is 1 (a process in several
elections leads when it leads any of its leases, stands by when it leads none; top and
report read it the same way), else the one that holds a Lease of the namespace
(holderIdentity POD_..., when you may list leases). A standby replica runs no controllers,
so it usually exports no workqueue series: the standbys whose queues are empty are folded
into one STANDBY row per workload, after the queue rows, and -o wide shows LEADER yes on the
leader's rows. -o json|yaml lists every replica of such
workloads under "replicas" (leader, how it was told, queues, folded). A non-leader with items
in its queues (a controller-runtime warm replica) keeps its rows, LEADER no.

STATUS, worst first. A queue's status comes from the findings of kubectl ctrldiag report on
that queue, judged with the same thresholds (--threshold name=value, --thresholds FILE; names
in README), so the table and the report always agree; REASON names the finding's code:
  ERROR     the target could not be read or parsed (reason on stderr / in "errors")
  STUCK     stuck-worker: an item has been in a worker for stuckAfter (30s) or more
  FAILING   retry-storm: more than errorRatio (10%) of reconciles failed (at least minEvents,
            10, in the window, or, when some failed in a thinner window, since the process
            started); persistent-failures (objects keep failing and back off); with one
            sample, lifetime-failures (most reconciles since the process started failed)
  BACKLOG   backlog-growing: the depth rose by risingDepth (10) or more; or backlog-high:
            backlogDepth (100) items wait, not rising that much (draining, steady, one sample)
  SATURATED the workers cannot keep up: workers-saturated (every worker busy and items
            wait, or items wait longer than the work takes), priority-starvation (on a
            priority queue, a lower priority does not drain while every worker serves the
            higher ones) or under-provisioned (more workers needed for the target wait)
  SLOW      slow-reconcile: work p99 of slowWork (1s) or more although workers are free
  RETRYING  retry-storm on a queue without reconcile metrics (retriesPerSecond and
            retryRatio of adds), or hot-loop (reconciles that ask to be requeued, at once)
  GONE      the queue was in the first sample but not the second (restart, lost leadership)
  OK        none of the above
  STANDBY   not a queue: the standby replicas of a workload, folded into the leader's rows
Exit codes: 0 results printed (also when some targets failed: they are listed as ERROR rows,
in "errors" of -o json|yaml, and on stderr); 1 every target failed (stderr names each);
2 invalid flags or arguments.`

const example = `  # The queues of a controller-runtime manager's metrics endpoint, rates over 5 seconds
  kubectl ctrldiag queues --url http://localhost:8080/metrics

  # A kubebuilder v4 HTTPS endpoint with a ServiceAccount token
  kubectl ctrldiag queues --url https://localhost:8443/metrics \
    --token "$(kubectl create token metrics-reader -n system)" --insecure-skip-tls-verify-metrics

  # Two saved pages of kube-controller-manager, 10 seconds apart, as JSON
  kubectl ctrldiag queues --from-file kcm-1.prom,kcm-2.prom --interval 10s -o json

  # One page from stdin: lifetime quantiles
  kubectl get --raw /metrics | kubectl ctrldiag queues --from-file - -o wide`

// NewCmd returns the queues command.
func NewCmd(g *globals.Flags, streams genericiooptions.IOStreams) *cobra.Command {
	o := NewOptions(g, streams)
	cmd := &cobra.Command{
		Use:               "queues [TARGET...] [flags]",
		Short:             "Show every workqueue's depth, rates, latency and status, worst first",
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
	o.Sources.AddFlags(cmd.Flags(), true)
	o.Thresholds.AddFlags(cmd.Flags())
	cmd.Flags().StringVarP(&o.Output, "output", "o", "", "Output format: wide, json or yaml (default: table)")
	o.Sources.RegisterCompletions(cmd)
	o.Thresholds.RegisterCompletions(cmd)
	completion.Register(cmd, "output", completion.Formats(formats...))
	return cmd
}
