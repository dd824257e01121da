// Package thresholdflags holds --threshold and --thresholds, shared by queues and report: one
// threshold set judges the findings of report and, through them, the STATUS of every queue.
package thresholdflags

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/completion"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/exitcode"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/findings"
)

// Flags are the values of the threshold flags.
type Flags struct {
	Set  []string
	File string
}

// AddFlags registers the flags.
func (f *Flags) AddFlags(fs *pflag.FlagSet) {
	fs.StringArrayVar(&f.Set, "threshold", nil, "Override a threshold, name=value (repeatable; names: kubectl ctrldiag explain thresholds)")
	fs.StringVar(&f.File, "thresholds", "", "YAML file of thresholds to override")
}

// RegisterCompletions offers the threshold names to shell completion of --threshold, as
// "name=" for the value to follow, and YAML files to --thresholds, on cmd, which has the
// flags of AddFlags.
func (f *Flags) RegisterCompletions(cmd *cobra.Command) {
	completion.Register(cmd, "threshold", completion.Keys(findings.ThresholdNames()...))
	completion.Register(cmd, "thresholds", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return []cobra.Completion{"yaml", "yml"}, cobra.ShellCompDirectiveFilterFileExt
	})
}

// Thresholds are the defaults with the file's values, then the --threshold values, applied.
func (f *Flags) Thresholds() (findings.Thresholds, error) {
	th := findings.DefaultThresholds()
	if f.File != "" {
		if err := th.LoadFile(f.File); err != nil {
			return th, exitcode.UsageError("%v", err)
		}
	}
	for _, kv := range f.Set {
		if err := th.Set(kv); err != nil {
			return th, exitcode.UsageError("%v", err)
		}
	}
	return th, nil
}
