package cmd

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
)

// addCommands registers the diagnostic verbs. Each verb lives in its own package under
// pkg/cmd and gets the shared flags g and the streams.
func addCommands(root *cobra.Command, g *cli.GlobalFlags, streams genericiooptions.IOStreams) {
	for _, c := range []*cobra.Command{
		NewQueuesCmd(g, streams),
		NewTopCmd(g, streams),
		NewTargetsCmd(g, streams),
		NewReportCmd(g, streams),
		NewSnapshotCmd(g, streams),
		NewDiffCmd(streams),
		NewRulesCmd(g, streams),
		NewExplainCmd(streams),
		cli.NewOperatorLaunchCmd(streams),
	} {
		root.AddCommand(c)
	}
}
