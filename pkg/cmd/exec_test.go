package cmd

import (
	"bytes"
	"testing"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
)

// testGlobals are the global flags of a command run by a test: nothing read from a kubeconfig
// until a flag asks for it.
func testGlobals() *cli.GlobalFlags {
	return &cli.GlobalFlags{ConfigFlags: genericclioptions.NewConfigFlags(false)}
}

// execute runs cmd with args, writing to out and errOut, and returns both and the exit code
// the error maps to (its message appended to stderr, as the plugin's main prints it).
func execute(t *testing.T, cmd *cobra.Command, out, errOut *bytes.Buffer, args ...string) (string, string, int) {
	t.Helper()
	cmd.SetArgs(args)
	cmd.SetOut(out)
	cmd.SetErr(errOut)
	code, msg := cli.CodeFor(cmd.Execute())
	return out.String(), errOut.String() + msg, code
}

// runVerb executes the command newCmd makes with test streams and args.
func runVerb(t *testing.T, newCmd func(*cli.GlobalFlags, genericiooptions.IOStreams) *cobra.Command, args ...string) (string, string, int) {
	t.Helper()
	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	return execute(t, newCmd(testGlobals(), streams), out, errOut, args...)
}
