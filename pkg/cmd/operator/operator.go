// Package operator implements `kubectl ctrldiag operator run|install|uninstall`: the
// built-in reference operator whose fault scenarios are the ground truth for diagnosis.
// The commands turn flags into a configuration for pkg/operator and pkg/operator/install.
package operator

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/globals"
)

// NewCmd returns the `operator` command with its run, install and uninstall sub-commands.
func NewCmd(g *globals.Flags, streams genericiooptions.IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "operator",
		Short: "Run or install the built-in reference operator, a controller with switchable faults",
		Long: `The reference operator is a real controller-runtime operator with a small CRD
(workloads.demo.ctrldiag.dev). Each Workload's spec sets how its reconcile behaves (delay,
failure rate, requeue, stuck, children, payload), and --scenario NAME creates a named load
that shows one fault on /metrics, so that there is always something to diagnose.`,
	}
	cmd.AddCommand(newRunCmd(g, streams), newInstallCmd(g, streams), newUninstallCmd(g, streams))
	return cmd
}
