// Package version implements the version command of both binaries: `kubectl ctrldiag version`
// and `kubectl ctrldiag operator version`.
package version

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/completion"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printer"
	buildinfo "github.com/ctrldiag/kubectl-ctrldiag/pkg/version"
)

// Options holds the flag values of the version command.
type Options struct {
	Output string
	// Binary names the program whose build is printed: kubectl-ctrldiag or its operator.
	Binary string
	genericiooptions.IOStreams
}

// formats are the values of -o: "" is one line of text.
var formats = []string{"", "json", "yaml"}

// example shows the two forms people use: a line to read and a document for scripts.
const example = `  # The version, commit and build date, as one line
  kubectl ctrldiag version

  # The same as JSON, for a bug report or a script
  kubectl ctrldiag version -o json`

// NewCmd returns the version command of the binary named binary.
func NewCmd(binary string, streams genericiooptions.IOStreams) *cobra.Command {
	o := &Options{Binary: binary, IOStreams: streams}
	cmd := &cobra.Command{
		Use:     "version",
		Short:   "Print the version, commit and build date of " + binary,
		Args:    cobra.NoArgs,
		Example: strings.ReplaceAll(example, "kubectl ctrldiag", commandOf(binary)),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := printer.ValidateFormat(o.Output, formats...); err != nil {
				return err
			}
			cmd.SilenceUsage = true
			return o.Run()
		},
	}
	cmd.Flags().StringVarP(&o.Output, "output", "o", "", "Output format: json or yaml (default: one line of text)")
	completion.Register(cmd, "output", completion.Formats(formats...))
	return cmd
}

// Run prints the build information.
func (o *Options) Run() error {
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
