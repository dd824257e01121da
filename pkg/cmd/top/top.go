// Package top implements `kubectl ctrldiag top`: the queue table of `queues`, refreshed in
// place on a terminal, or printed once per refresh with a timestamp elsewhere.
package top

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/globals"
)

const long = `Watch every workqueue of the targets: the table of kubectl ctrldiag queues, refreshed every
--refresh (2s), worst first. Each refresh reads every target once; rates and window quantiles
are over the time since the refresh before (the first refresh has none: "window: lifetime").
The targets are found once, and their connections (the API server's, HTTP keep-alives, each
pod's port-forward) are kept from one refresh to the next. A target that fails becomes an ERROR row until it answers
again. Pods created during the session (a rollout's) are not picked up: start top again.

Sources are those of kubectl ctrldiag queues (see its help): the cluster in the namespace (-n)
or everywhere (-A), TARGET arguments (pod/NAME, deploy/NAME, svc/NAME), or --url. Saved pages
(--from-file) do not change and are refused. STATUS and its thresholds are those of queues.

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
as kubectl get -w does; --count N stops after N refreshes.

Exit codes: 0 quit or --count reached; 1 no target found; 2 invalid flags or arguments.`

const example = `  # Watch the queues of the operators in namespace ops
  kubectl ctrldiag top -n ops

  # One endpoint, refreshed every second, 10 tables into a file
  kubectl ctrldiag top --url http://localhost:8080/metrics --refresh 1s --count 10 > top.log`

// NewCmd returns the top command.
func NewCmd(g *globals.Flags, streams genericiooptions.IOStreams) *cobra.Command {
	o := NewOptions(g, streams)
	cmd := &cobra.Command{
		Use:     "top [TARGET...] [flags]",
		Short:   "Watch every workqueue's depth, rates and status, refreshed in place",
		Long:    long,
		Example: example,
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
	cmd.Flags().DurationVar(&o.Refresh, "refresh", o.Refresh, "Time between refreshes")
	cmd.Flags().IntVar(&o.Count, "count", 0, "Stop after this many refreshes (0: until interrupted)")
	// Saved pages and a Prometheus server are sources top refuses: keep them out of its help.
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Name == "from-file" || strings.HasPrefix(f.Name, "prometheus") {
			f.Hidden = true
		}
	})
	return cmd
}
