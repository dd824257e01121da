package cmd

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// addCommands registers the diagnostic verbs. Each verb lives in its own package under pkg/cmd.
func addCommands(root *cobra.Command, g *Globals, streams genericiooptions.IOStreams) {
	_ = g
	_ = streams
}
