// Package failonflag registers --fail-on on the commands that exit 3 on findings (report,
// snapshot, diff) and reads it with pkg/failon: one flag, one parser, one decision.
package failonflag

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/completion"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/exitcode"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/failon"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/findings"
)

// Name is the flag's name.
const Name = "fail-on"

// Flag is one command's --fail-on: the value given, in its scale's words.
type Flag struct {
	Value string
	scale failon.Scale
	level failon.Level
}

// New is a --fail-on of the scale, at none until the flag is given.
func New(scale failon.Scale) Flag {
	return Flag{Value: failon.None, scale: scale}
}

// AddFlag registers --fail-on, with the scale's values in its help.
func (fl *Flag) AddFlag(f *pflag.FlagSet) {
	f.StringVar(&fl.Value, Name, fl.Value, fl.scale.Help())
}

// RegisterCompletion offers the scale's values to shell completion of --fail-on on cmd, which
// has the flag of AddFlag.
func (fl *Flag) RegisterCompletion(cmd *cobra.Command) {
	completion.Register(cmd, Name, completion.Words(fl.scale.Values()...))
}

// Validate reads the value: a usage error names the scale's values.
func (fl *Flag) Validate() error {
	l, err := fl.scale.Parse(fl.Value)
	if err != nil {
		return exitcode.UsageError("--%s %v", Name, err)
	}
	fl.level = l
	return nil
}

// Fails reports whether a finding of fs reaches the level Validate read: then the command
// exits 3 once its output is written.
func (fl *Flag) Fails(fs []findings.Finding) bool { return fl.level.Fails(fs) }

// Findings is report's and snapshot's --fail-on: the severity a finding reaches.
func Findings() Flag { return New(failon.Findings) }

// Appeared is diff's --fail-on: the severity of a finding that appeared.
func Appeared() Flag { return New(failon.Appeared) }

// Level is the level Validate read, for the run layer, which judges the findings.
func (fl *Flag) Level() failon.Level { return fl.level }
