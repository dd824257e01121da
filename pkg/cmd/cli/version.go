// This file implements the version command of both binaries: `kubectl ctrldiag version`
// and `kubectl ctrldiag operator version`.

package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/printer"
	buildinfo "github.com/ctrldiag/kubectl-ctrldiag/pkg/version"
)

// VersionOptions holds the flag values of the version command.
type VersionOptions struct {
	Output string
	// Binary names the program whose build is printed: kubectl-ctrldiag or its operator.
	Binary string
	genericiooptions.IOStreams
}

// versionFormats are the values of -o: "" is one line of text.
var versionFormats = []string{"", "json", "yaml"}

// versionExample shows the two forms people use: a line to read and a document for scripts.
const versionExample = `  # The version, commit and build date, as one line
  kubectl ctrldiag version

  # The same as JSON, for a bug report or a script
  kubectl ctrldiag version -o json`

// NewVersionCmd returns the version command of the binary named binary.
func NewVersionCmd(binary string, streams genericiooptions.IOStreams) *cobra.Command {
	o := &VersionOptions{Binary: binary, IOStreams: streams}
	cmd := &cobra.Command{
		Use:     "version",
		Short:   "Print the version, commit and build date of " + binary,
		Args:    cobra.NoArgs,
		Example: strings.ReplaceAll(versionExample, "kubectl ctrldiag", commandOf(binary)),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := printer.ValidateFormat(o.Output, versionFormats...); err != nil {
				return err
			}
			cmd.SilenceUsage = true
			return o.Run()
		},
	}
	cmd.Flags().StringVarP(&o.Output, "output", "o", "", "Output format: json or yaml (default: one line of text)")
	CompleteFlag(cmd, "output", CompleteFormats(versionFormats...))
	return cmd
}

// Run prints the build information.
func (o *VersionOptions) Run() error {
	info := buildinfo.Get()
	if o.Output == "json" || o.Output == "yaml" {
		return printer.Write(o.Out, o.Output, info, false)
	}
	_, err := fmt.Fprintf(o.Out, "%s %s (commit %s, built %s, %s, %s)\n", o.Binary,
		info.Version, info.Commit, info.BuildDate, info.GoVersion, info.Platform)
	return err
}

// commandOf is how a user types binary's commands: kubectl-ctrldiag is a kubectl plugin, and its
// operator is run as kubectl ctrldiag operator.
func commandOf(binary string) string {
	if strings.HasSuffix(binary, "-operator") {
		return "kubectl ctrldiag operator"
	}
	return "kubectl ctrldiag"
}
