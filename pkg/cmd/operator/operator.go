// Package operator implements the kubectl-ctrldiag-operator binary, `kubectl ctrldiag
// operator run|install|uninstall`: the built-in reference operator whose fault scenarios are
// the ground truth for diagnosis. The commands turn flags into a configuration for
// pkg/operator and pkg/operator/install.
package operator

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
)

// NewRootCmd returns the root command of kubectl-ctrldiag-operator, with the run, install,
// uninstall and version sub-commands.
func NewRootCmd(streams genericiooptions.IOStreams) *cobra.Command {
	root, g := cli.NewRoot(cli.RootSpec{
		Use:         cli.OperatorBinary,
		DisplayName: "kubectl ctrldiag operator",
		Short:       cli.OperatorShort,
		Long:        cli.OperatorLong,
	}, streams)
	root.AddCommand(newRunCmd(g, streams), newInstallCmd(g, streams), newUninstallCmd(g, streams),
		cli.NewVersionCmd(cli.OperatorBinary, streams))
	cli.NoFileArgs(root)
	return root
}
