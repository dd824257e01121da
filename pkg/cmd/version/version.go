// Package version implements `kubectl ctrldiag version`.
package version

import (
	"fmt"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/render"
	buildinfo "github.com/ctrldiag/kubectl-ctrldiag/pkg/version"
)

// Options holds the flag values of the version command.
type Options struct {
	Output string
	genericiooptions.IOStreams
}

// NewCmd returns the version command.
func NewCmd(streams genericiooptions.IOStreams) *cobra.Command {
	o := &Options{IOStreams: streams}
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version, commit and build date of kubectl-ctrldiag",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := render.ValidateFormat(o.Output, "", "json", "yaml"); err != nil {
				return err
			}
			cmd.SilenceUsage = true
			return o.Run()
		},
	}
	cmd.Flags().StringVarP(&o.Output, "output", "o", "", "Output format: json or yaml (default: one line of text)")
	return cmd
}

// Run prints the build information.
func (o *Options) Run() error {
	info := buildinfo.Get()
	if o.Output == "json" || o.Output == "yaml" {
		return render.Write(o.Out, o.Output, info)
	}
	_, err := fmt.Fprintf(o.Out, "kubectl-ctrldiag %s (commit %s, built %s, %s, %s)\n",
		info.Version, info.Commit, info.BuildDate, info.GoVersion, info.Platform)
	return err
}
