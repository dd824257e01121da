// Command kubectl-ctrldiag is the kubectl plugin `kubectl ctrldiag`: it tells whether
// Kubernetes controllers keep up with their work, and if not, why and what to change.
package main

import (
	"fmt"
	"os"
	"strings"

	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/klog/v2"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/exitcode"
)

func main() {
	streams := genericiooptions.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
	root := cmd.NewRootCmd(streams)
	c, err := root.ExecuteC()
	klog.Flush()
	code, msg := exitcode.CodeFor(err)
	if code == exitcode.Error && c != nil && !c.SilenceUsage {
		// Commands silence usage once their flags are validated: an error before that point
		// (unknown flag, bad value, wrong arguments) is a usage error and usage was printed.
		code = exitcode.Usage
	}
	if msg != "" {
		fmt.Fprintln(os.Stderr, "error: "+strings.TrimSpace(msg))
	}
	os.Exit(code)
}
