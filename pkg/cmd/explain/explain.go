// Package explain implements `kubectl ctrldiag explain [TOPIC]`: what a check, the thresholds,
// the STATUS values and the capacity model mean, without a cluster. Flags only: pkg/explain
// builds the pages.
package explain

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/completion"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/exitcode"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/explain"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printer"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/render"
)

const long = `Explain what the output of the other commands means. Without a topic, list the topics and
the checks.

Topics:
  CODE or NAME  a check (e.g. CD208 or workers-saturated, any case): what it means, its
                severity, the thresholds it is judged against and what to change
  thresholds    every threshold: default, unit and meaning
  status        the STATUS values of the queue table and the checks that set each
  capacity      how report works out the workers a queue needs
  STATUS        a STATUS value (e.g. SATURATED): the status page
  THRESHOLD     a threshold's name (e.g. stuckAfter): its default, unit and meaning

-o json|yaml gives a check's page and the thresholds as data; status and capacity are text
only. No cluster is read. Exit codes: 0 printed; 2 unknown topic or invalid flags.`

const example = `  # What the finding CD208 means and what to change
  kubectl ctrldiag explain CD208

  # Every threshold with its default, as YAML
  kubectl ctrldiag explain thresholds -o yaml

  # The STATUS column of queues and top
  kubectl ctrldiag explain status`

var formats = []string{"", "json", "yaml"}

// NewCmd returns the explain command.
func NewCmd(streams genericiooptions.IOStreams) *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:     "explain [TOPIC] [flags]",
		Short:   "Explain a finding code, a threshold, STATUS, the capacity model",
		Long:    long,
		Example: example,
		Args:    cobra.MaximumNArgs(1),
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return completion.Words(explain.Names()...)(cmd, args, toComplete)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := printer.ValidateFormat(output, formats...); err != nil {
				return exitcode.UsageError("-o: %v", err)
			}
			if len(args) == 0 {
				if output != "" {
					return exitcode.UsageError("-o %s needs a topic: a check, or thresholds", output)
				}
				cmd.SilenceUsage = true
				return explain.WriteTopics(streams.Out)
			}
			page, err := explain.Find(args[0])
			if err != nil {
				return exitcode.UsageError("%v", err)
			}
			cmd.SilenceUsage = true
			if output == "" {
				return explain.WritePage(streams.Out, page)
			}
			data, ok := page.Data()
			if !ok {
				return exitcode.UsageError("%s is text only: -o json|yaml is for a check or thresholds", args[0])
			}
			return render.Write(streams.Out, output, data)
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "", "Output format: json or yaml, for a check or thresholds (default: text)")
	completion.Register(cmd, "output", completion.Formats(formats...))
	return cmd
}
