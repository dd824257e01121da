// Command kubectl-ctrldiag is the kubectl plugin `kubectl ctrldiag`: it tells whether
// Kubernetes controllers keep up with their work, and if not, why and what to change.
package main

import (
	"os"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd"

	// The first garbage collection waits for a heap of a few MiB: start-up allocates that.
	_ "github.com/ctrldiag/kubectl-ctrldiag/internal/startheap"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
)

func main() {
	streams := genericiooptions.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
	os.Exit(cli.Main(cmd.NewRootCmd(streams), os.Stderr))
}
