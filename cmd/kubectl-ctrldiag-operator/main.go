// Command kubectl-ctrldiag-operator is the reference operator of kubectl-ctrldiag, run as
// `kubectl ctrldiag operator run|install|uninstall`. It is a binary of its own so that the
// plugin does not link controller-runtime: see pkg/cmd/cli (operatorlaunch.go).
package main

import (
	"os"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/operator"
)

func main() {
	streams := genericiooptions.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
	os.Exit(cli.Main(operator.NewRootCmd(streams), os.Stderr))
}
