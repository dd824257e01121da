// This file registers --fail-on on the commands that exit 3 on findings (report,
// snapshot, diff) and reads it with pkg/judge/findings (FailOnLevel): one flag, one parser, one decision.

package cmd

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
)

// FailOnName is the flag's name.
const FailOnName = "fail-on"

// FailOnFlag is one command's --fail-on: the value given, in its scale's words.
type FailOnFlag struct {
	Value string
	scale findings.FailOnScale
	level findings.FailOnLevel
}

// NewFailOn is a --fail-on of the scale, at none until the flag is given.
func NewFailOn(scale findings.FailOnScale) FailOnFlag {
	return FailOnFlag{Value: findings.FailOnNone, scale: scale}
}

// AddFlag registers --fail-on, with the scale's values in its help.
func (fl *FailOnFlag) AddFlag(f *pflag.FlagSet) {
	f.StringVar(&fl.Value, FailOnName, fl.Value, fl.scale.Help())
}

// RegisterCompletion offers the scale's values to shell completion of --fail-on on cmd, which
// has the flag of AddFlag.
func (fl *FailOnFlag) RegisterCompletion(cmd *cobra.Command) {
	cli.CompleteFlag(cmd, FailOnName, cli.CompleteWords(fl.scale.Values()...))
}

// Validate reads the value: a usage error names the scale's values.
func (fl *FailOnFlag) Validate() error {
	l, err := fl.scale.Parse(fl.Value)
	if err != nil {
		return cli.UsageError("--%s %v", FailOnName, err)
	}
	fl.level = l
	return nil
}

// Fails reports whether a finding of fs reaches the level Validate read: then the command
// exits 3 once its output is written.
func (fl *FailOnFlag) Fails(fs []findings.Finding) bool { return fl.level.Fails(fs) }

// FailOnFindings is report's and snapshot's --fail-on: the severity a finding reaches.
func FailOnFindings() FailOnFlag { return NewFailOn(findings.FailOnReported) }

// FailOnAppeared is diff's --fail-on: the severity of a finding that appeared.
func FailOnAppeared() FailOnFlag { return NewFailOn(findings.FailOnAppeared) }

// Level is the level Validate read, for the run layer, which judges the findings.
func (fl *FailOnFlag) Level() findings.FailOnLevel { return fl.level }
