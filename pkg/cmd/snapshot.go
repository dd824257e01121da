// This file implements `kubectl ctrldiag snapshot`: read like report does and write
// everything the report rests on to one file, to attach to a ticket and read again offline
// with --from-snapshot, or to compare with another with diff.

package cmd

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
)

const snapshotLong = `Read the controllers as 'kubectl ctrldiag report' does (the same targets and flags, two
samples --interval apart) and write what was read to one file (-f, a .tar.gz):

  - the raw metrics pages of both samples of every target, as read (within --max-body-bytes),
    and the time of each;
  - the targets and how each was reached (proxy, port-forward, direct);
  - the controller pods: status, resources, restarts, last terminations (environment values,
    annotations other than prometheus.io/*, secret-named flag values and probe headers are
    left out);
  - the cluster's answers: generation lag, the objects the controllers reconcile, Lease
    holders, metrics.k8s.io usage; the pods' Warning events of the last hour;
  - the API server's and the plugin's versions, and the report the run made (report.json).

No credential is written: the metrics token and the kubeconfig's are masked wherever they
would appear. Attach the file to the ticket: 'kubectl ctrldiag report --from-snapshot FILE'
(or queues) gives the report of that moment on any machine, without the cluster, and
'kubectl ctrldiag diff BEFORE AFTER' compares two snapshots.

With -o the report is also printed, as report prints it. Exit codes are report's.`

const snapshotExample = `  # Snapshot a namespace's controllers and attach the file to the ticket
  kubectl ctrldiag snapshot -n my-operator-system -f incident-4711.tar.gz

  # Read it later, anywhere
  kubectl ctrldiag report --from-snapshot incident-4711.tar.gz

  # Before and after a rollout
  kubectl ctrldiag snapshot -n my-operator-system -f before.tar.gz
  kubectl rollout restart deploy/my-operator -n my-operator-system  # or upgrade
  kubectl ctrldiag snapshot -n my-operator-system -f after.tar.gz
  kubectl ctrldiag diff before.tar.gz after.tar.gz`

// NewSnapshotCmd returns the snapshot command.
func NewSnapshotCmd(g *cli.GlobalFlags, streams genericiooptions.IOStreams) *cobra.Command {
	o := NewSnapshotOptions(g, streams)
	cmd := &cobra.Command{
		Use:               "snapshot [TARGET...] -f FILE [flags]",
		Short:             "Save what the report reads to one file, for later or elsewhere",
		Long:              snapshotLong,
		Example:           snapshotExample,
		ValidArgsFunction: cli.CompletePods(g),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.print = cmd.Flags().Changed("output")
			return runOptions(o)(cmd, args)
		},
	}
	o.Report.AddFlags(cmd.Flags())
	o.Report.RegisterCompletions(cmd)
	cmd.Flags().Lookup("output").Usage = "Also print the report the snapshot holds: text, json, yaml, markdown or html (default: print none)"
	cmd.Flags().StringVarP(&o.File, "file", "f", "", "The snapshot file to write (.tar.gz; required): a new file or a regular one, replaced whole; - writes to standard output")
	return cmd
}
