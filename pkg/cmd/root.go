// Package cmd wires the kubectl-ctrldiag command tree: the root command with the shared
// kubeconfig flags, and one sub-package per verb. Commands only turn flags into a validated
// configuration and call the engine packages under pkg/, which know nothing of cobra.
package cmd

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/completion"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/rootcmd"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/version"
)

const rootLong = `kubectl ctrldiag tells whether Kubernetes controllers keep up, and if not, why and what
to change. It finds controller pods, scrapes their Prometheus /metrics through the API
server's proxy or a port-forward, reads the client-go workqueue and controller-runtime
metrics, measures cache sync lag, and prints tables and concrete recommendations.
What a finding, a STATUS or a threshold means: kubectl ctrldiag explain. Everything else:
README.md and docs/ in https://github.com/ctrldiag/kubectl-ctrldiag.`

const rootExample = `  # Which controllers can be read in a namespace, and how
  kubectl ctrldiag targets -n my-operator-system

  # Their queues, worst first
  kubectl ctrldiag queues -n my-operator-system

  # Why they fall behind, and what to change
  kubectl ctrldiag report -n my-operator-system

  # What the finding CD208 means
  kubectl ctrldiag explain CD208`

// NewRootCmd builds the whole command tree writing to streams.
func NewRootCmd(streams genericiooptions.IOStreams) *cobra.Command {
	root, g := rootcmd.New(rootcmd.Spec{
		Use:         "kubectl-ctrldiag",
		DisplayName: "kubectl ctrldiag",
		Short:       "Diagnose whether Kubernetes controllers keep up with their work",
		Long:        rootLong,
		Example:     rootExample,
	}, streams)
	root.AddCommand(version.NewCmd(root.Name(), streams))
	addCommands(root, g, streams)
	completion.NoFileArgs(root)
	return root
}
