// This file implements `kubectl ctrldiag explain [TOPIC]`: what a check, the thresholds,
// the STATUS values and the capacity model mean, without a cluster. Flags only: pkg/print/render
// builds the pages.

package cmd

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/printer"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/render"
)

const explainLong = `Explain what the output of the other commands means. Without a topic, list the topics and
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

const explainExample = `  # What the finding CD208 means and what to change
  kubectl ctrldiag explain CD208

  # Every threshold with its default, as YAML
  kubectl ctrldiag explain thresholds -o yaml

  # The STATUS column of queues and top
  kubectl ctrldiag explain status`

var explainFormats = []string{"", "json", "yaml"}

// NewExplainCmd returns the explain command.
func NewExplainCmd(streams genericiooptions.IOStreams) *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:     "explain [TOPIC] [flags]",
		Short:   "Explain a finding code, a threshold, STATUS, the capacity model",
		Long:    explainLong,
		Example: explainExample,
		Args:    cobra.MaximumNArgs(1),
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return cli.CompleteWords(render.Names()...)(cmd, args, toComplete)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := printer.ValidateFormat(output, explainFormats...); err != nil {
				return cli.UsageError("-o: %v", err)
			}
			if len(args) == 0 {
				if output != "" {
					return cli.UsageError("-o %s needs a topic: a check, or thresholds", output)
				}
				cmd.SilenceUsage = true
				return render.WriteTopics(streams.Out)
			}
			page, err := render.Find(args[0])
			if err != nil {
				return cli.UsageError("%v", err)
			}
			cmd.SilenceUsage = true
			if output == "" {
				return render.WritePage(streams.Out, page)
			}
			data, ok := page.Data()
			if !ok {
				return cli.UsageError("%s is text only: -o json|yaml is for a check or thresholds", args[0])
			}
			return render.Write(streams.Out, output, data)
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "", "Output format: json or yaml, for a check or thresholds (default: text)")
	cli.CompleteFlag(cmd, "output", cli.CompleteFormats(explainFormats...))
	return cmd
}
