package cmd

import (
	"fmt"
	"io"

	"k8s.io/klog/v2"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/run"
)

// Inputs are what a command gives run.Open besides the Spec: the kubeconfig of the global
// flags, stdin for --from-file -, and, with -v, errOut for what the Prometheus queries cost.
func Inputs(g *cli.GlobalFlags, stdin io.Reader, errOut io.Writer) run.Inputs {
	in := run.Inputs{Stdin: stdin, Log: promLog(errOut)}
	if g != nil && g.ConfigFlags != nil {
		in.Kubeconfig = g.ConfigFlags
	}
	return in
}

// promLog is where the Prometheus source says what its queries cost, with -v.
func promLog(errOut io.Writer) func(string) {
	if errOut == nil || !klog.V(1).Enabled() {
		return nil
	}
	return func(s string) { fmt.Fprintln(errOut, cli.StderrLine(s)) }
}
