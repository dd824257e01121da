package cli

import "github.com/spf13/cobra"

// NoFileArgs makes every command of root's tree that says nothing of how its arguments
// complete offer nothing for them, instead of cobra's default, the files of the current
// folder: most commands take no argument, or names that are no files. A command whose
// arguments are files says so with its own ValidArgsFunction (Files). Flags are untouched:
// a flag without a completion of its own (--kubeconfig, --from-file) still offers files.
func NoFileArgs(root *cobra.Command) {
	if root.ValidArgsFunction == nil && len(root.ValidArgs) == 0 {
		root.ValidArgsFunction = cobra.NoFileCompletions
	}
	for _, c := range root.Commands() {
		NoFileArgs(c)
	}
}

// CompleteFiles completes up to max arguments with files, and nothing after them.
func CompleteFiles(max int) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) >= max {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return nil, cobra.ShellCompDirectiveDefault
	}
}
