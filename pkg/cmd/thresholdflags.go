// This file holds --threshold, --thresholds and --slo, shared by queues and report:
// one threshold set judges the findings of report and, through them, the STATUS of every queue.

package cmd

import (
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
)

// ThresholdFlags are the values of the threshold flags.
type ThresholdFlags struct {
	Set  []string
	File string
	// SLO are --slo name=duration values, each possibly a comma-separated list.
	SLO []string
}

// AddFlags registers the flags.
func (f *ThresholdFlags) AddFlags(fs *pflag.FlagSet) {
	fs.StringArrayVar(&f.Set, "threshold", nil, "Override a threshold, name=value (repeatable; names: kubectl ctrldiag explain thresholds)")
	fs.StringVar(&f.File, "thresholds", "", "YAML file of thresholds to override")
	fs.StringArrayVar(&f.SLO, "slo", nil, "Service-level objectives at p99, name=duration, comma-separated or repeated: queue-wait-p99 (default 1s, the threshold targetQueueWait), spec-p99 (default 30s, targetSpecLatency)")
}

// RegisterCompletions offers the threshold names to shell completion of --threshold, as
// "name=" for the value to follow, and YAML files to --thresholds, on cmd, which has the
// flags of AddFlags.
func (f *ThresholdFlags) RegisterCompletions(cmd *cobra.Command) {
	cli.CompleteFlag(cmd, "threshold", cli.CompleteKeys(findings.ThresholdNames()...))
	cli.CompleteFlag(cmd, "slo", cli.CompleteKeys(findings.SLONames()...))
	cli.CompleteFlag(cmd, "thresholds", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return []cobra.Completion{"yaml", "yml"}, cobra.ShellCompDirectiveFilterFileExt
	})
}

// Thresholds are the defaults with the file's values, then the --threshold values, then the
// --slo objectives, applied.
func (f *ThresholdFlags) Thresholds() (findings.Thresholds, error) {
	th := findings.DefaultThresholds()
	if f.File != "" {
		if err := th.LoadFile(f.File); err != nil {
			return th, cli.UsageError("%v", err)
		}
	}
	for _, kv := range f.Set {
		if err := th.Set(kv); err != nil {
			return th, cli.UsageError("%v", err)
		}
	}
	for _, kv := range f.objectives() {
		if err := th.SetSLO(kv); err != nil {
			return th, cli.UsageError("%v", err)
		}
	}
	return th, nil
}

// objectives are the name=duration pairs of every --slo, the comma-separated lists split.
func (f *ThresholdFlags) objectives() []string {
	var out []string
	for _, v := range f.SLO {
		for _, kv := range strings.Split(v, ",") {
			if kv = strings.TrimSpace(kv); kv != "" {
				out = append(out, kv)
			}
		}
	}
	return out
}

// SLOQueueWait is the queue-wait objective --slo set (the last one given), 0 when none did:
// report refuses it next to a different --target-queue-wait.
func (f *ThresholdFlags) SLOQueueWait() time.Duration {
	var d time.Duration
	for _, kv := range f.objectives() {
		if v, ok := findings.SLOValue(kv, "queue-wait-p99"); ok {
			d = v
		}
	}
	return d
}
