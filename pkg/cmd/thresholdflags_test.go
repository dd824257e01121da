package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
)

// A threshold value that cannot be used is a usage error (exit 2) saying the flag, the value
// and what is allowed.
func TestBadThresholdsAreUsageErrors(t *testing.T) {
	page := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(page, []byte("<html><body>metrics</body></html>\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		flags ThresholdFlags
		want  string
	}{
		{ThresholdFlags{Set: []string{"stuckAfter=abc"}}, "--threshold stuckAfter=abc: not a duration (use e.g. 30s, 5m)"},
		{ThresholdFlags{Set: []string{"errorRatio=2"}}, "--threshold errorRatio=2: a ratio must be from 0 to 1, e.g. 0.1 for 10%"},
		{ThresholdFlags{Set: []string{"backlogDepth=-3"}}, "--threshold backlogDepth=-3: must be 0 or more, e.g. 100"},
		{ThresholdFlags{Set: []string{"errRatio=0.5"}}, `--threshold errRatio=0.5: unknown threshold "errRatio" (did you mean errorRatio?)`},
		{ThresholdFlags{SLO: []string{"spec-p99=soon"}}, "--slo spec-p99=soon: not a duration (use e.g. 30s, 5m)"},
		{ThresholdFlags{SLO: []string{"spec-p99"}}, `--slo "spec-p99": use name=duration, e.g. queue-wait-p99=1s; names: queue-wait-p99, spec-p99`},
		{ThresholdFlags{SLO: []string{"latency=1s"}}, `--slo latency=1s: unknown objective "latency"; names: queue-wait-p99, spec-p99`},
		{ThresholdFlags{File: page}, "--thresholds " + page + `: not a thresholds file: it holds YAML lines of a threshold name and its value, e.g. "stuckAfter: 10m"`},
	} {
		_, err := c.flags.Thresholds()
		code, msg := cli.CodeFor(err)
		if code != cli.ExitUsage || !strings.HasPrefix(msg, c.want) {
			t.Errorf("%+v: exit %d %q, want exit %d %q", c.flags, code, msg, cli.ExitUsage, c.want)
		}
	}
	th, err := (&ThresholdFlags{Set: []string{"stuckAfter=2m"}}).Thresholds()
	if code, _ := cli.CodeFor(err); code != cli.ExitOK || th.StuckAfter.String() != "2m0s" {
		t.Errorf("stuckAfter=2m: exit %d, %v", code, th.StuckAfter)
	}
}

// --slo sets the thresholds its objectives stand for, after --threshold, whether the pairs are
// comma-separated or repeated.
func TestSLOSetsTheObjectives(t *testing.T) {
	f := ThresholdFlags{Set: []string{"targetQueueWait=5s"}, SLO: []string{"queue-wait-p99=250ms, spec-p99=10s", "spec-p99=20s"}}
	th, err := f.Thresholds()
	if err != nil {
		t.Fatal(err)
	}
	if th.TargetQueueWait.String() != "250ms" || th.TargetSpecLatency.String() != "20s" || f.SLOQueueWait().String() != "250ms" {
		t.Errorf("queue wait %v, spec %v, --slo queue wait %v", th.TargetQueueWait, th.TargetSpecLatency, f.SLOQueueWait())
	}
	if d := (&ThresholdFlags{SLO: []string{"spec-p99=1s"}}).SLOQueueWait(); d != 0 {
		t.Errorf("no queue-wait objective given: %v", d)
	}
}
