package findings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Negative durations, counts and rates, and ratios outside 0 to 1, are refused by name and
// value, from --threshold and from the thresholds file alike.
func TestThresholdsOutOfRangeAreRefused(t *testing.T) {
	for kv, want := range map[string]string{
		"stuckAfter=-1s":       "--threshold stuckAfter=-1s: stuckAfter -1s: a duration must be 0 or more",
		"errorRatio=-1":        "--threshold errorRatio=-1: errorRatio -1: a ratio must be from 0 to 1",
		"memoryRatio=1.5":      "memoryRatio 1.5: a ratio must be from 0 to 1",
		"backlogDepth=-1":      "backlogDepth -1: it must be a number, 0 or more",
		"minEvents=-5":         "minEvents -5: it must be a number, 0 or more",
		"targetQueueWait=-2ms": "targetQueueWait -2ms: a duration must be 0 or more",
	} {
		th := DefaultThresholds()
		if err := th.Set(kv); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Set(%q) = %v, want an error saying %q", kv, err, want)
		}
	}
	for _, kv := range []string{"errorRatio=0", "errorRatio=1", "stuckAfter=0s", "backlogDepth=0"} {
		th := DefaultThresholds()
		if err := th.Set(kv); err != nil {
			t.Errorf("Set(%q) = %v, want it accepted", kv, err)
		}
	}
	f := filepath.Join(t.TempDir(), "th.yaml")
	if err := os.WriteFile(f, []byte("errorRatio: 2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	th := DefaultThresholds()
	if err := th.LoadFile(f); err == nil || !strings.Contains(err.Error(), "thresholds file "+f+": errorRatio 2: a ratio must be from 0 to 1") {
		t.Errorf("LoadFile = %v, want the ratio refused", err)
	}
	if err := os.WriteFile(f, []byte("slowWork: -1m\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	th = DefaultThresholds()
	if err := th.LoadFile(f); err == nil || !strings.Contains(err.Error(), "slowWork -1m0s: a duration must be 0 or more") {
		t.Errorf("LoadFile = %v, want the duration refused", err)
	}
}
