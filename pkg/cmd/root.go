// Package cmd is the kubectl-ctrldiag command tree: the root command (from pkg/cmd/cli) and
// each verb in a file of its own (queues.go, report.go, ...) with its options and tests. A verb
// turns its flags into a Spec and a config, hands them to pkg/run, and prints the
// result through pkg/print/render; nothing below this package knows cobra.
package cmd

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
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
	root, g := cli.NewRoot(cli.RootSpec{
		Use:         "kubectl-ctrldiag",
		DisplayName: "kubectl ctrldiag",
		Short:       "Diagnose whether Kubernetes controllers keep up with their work",
		Long:        rootLong,
		Example:     rootExample,
	}, streams)
	root.AddCommand(cli.NewVersionCmd(root.Name(), streams))
	addCommands(root, g, streams)
	cli.NoFileArgs(root)
	return root
}
