package cmd

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/diff"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/explain"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/globals"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/operatorlaunch"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/queues"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/report"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/rules"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/snapshot"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/targets"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/top"
)

// addCommands registers the diagnostic verbs. Each verb lives in its own package under
// pkg/cmd and gets the shared flags g and the streams.
func addCommands(root *cobra.Command, g *globals.Flags, streams genericiooptions.IOStreams) {
	for _, c := range []*cobra.Command{
		queues.NewCmd(g, streams),
		top.NewCmd(g, streams),
		targets.NewCmd(g, streams),
		report.NewCmd(g, streams),
		snapshot.NewCmd(g, streams),
		diff.NewCmd(streams),
		rules.NewCmd(g, streams),
		explain.NewCmd(streams),
		operatorlaunch.NewCmd(streams),
	} {
		root.AddCommand(c)
	}
}
