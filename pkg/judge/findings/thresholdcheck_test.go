package findings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every --threshold value that cannot be used is refused with the flag, the value as typed and
// what is allowed: not a duration, not a number, out of range, an unknown name.
func TestThresholdValuesAreRefusedInTheUsersWords(t *testing.T) {
	for kv, want := range map[string]string{
		"stuckAfter=abc":       "--threshold stuckAfter=abc: not a duration (use e.g. 30s, 5m)",
		"stuckAfter=30":        "--threshold stuckAfter=30: not a duration (use e.g. 30s, 5m)",
		"backlogDepth=abc":     "--threshold backlogDepth=abc: not a number (use e.g. 100)",
		"errorRatio=10%":       "--threshold errorRatio=10%: not a number (use e.g. 0.1)",
		"stuckAfter=-1s":       "--threshold stuckAfter=-1s: a duration must be more than 0, e.g. 30s",
		"stuckAfter=0s":        "--threshold stuckAfter=0s: a duration must be more than 0, e.g. 30s",
		"since=0":              "--threshold since=0: a duration must be more than 0, e.g. 1h",
		"targetQueueWait=-2ms": "--threshold targetQueueWait=-2ms: a duration must be more than 0, e.g. 1s",
		"errorRatio=2":         "--threshold errorRatio=2: a ratio must be from 0 to 1, e.g. 0.1 for 10%",
		"errorRatio=-1":        "--threshold errorRatio=-1: a ratio must be from 0 to 1, e.g. 0.1 for 10%",
		"memoryRatio=1.5":      "--threshold memoryRatio=1.5: a ratio must be from 0 to 1, e.g. 0.1 for 10%",
		"backlogDepth=-1":      "--threshold backlogDepth=-1: must be 0 or more, e.g. 100",
		"minEvents=-5":         "--threshold minEvents=-5: must be 0 or more, e.g. 10",
		"retryStormRate=NaN":   "--threshold retryStormRate=NaN: must be 0 or more, e.g. 2",
		"errRatio=0.2":         `--threshold errRatio=0.2: unknown threshold "errRatio" (did you mean errorRatio?)`,
		"stuckafter=1m":        `--threshold stuckafter=1m: unknown threshold "stuckafter" (did you mean stuckAfter?)`,
		"foo=1":                `--threshold foo=1: unknown threshold "foo"; names: minEvents, stuckAfter, errorRatio,`,
	} {
		th := DefaultThresholds()
		if err := th.Set(kv); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Set(%q) = %v, want %q", kv, err, want)
		}
		if th != DefaultThresholds() {
			t.Errorf("Set(%q) changed the thresholds though refused", kv)
		}
	}
	for kv, ok := range map[string]func(Thresholds) bool{
		"errorRatio=0":     func(th Thresholds) bool { return th.ErrorRatio == 0 },
		"errorRatio=1":     func(th Thresholds) bool { return th.ErrorRatio == 1 },
		"backlogDepth=0":   func(th Thresholds) bool { return th.BacklogDepth == 0 },
		"stuckAfter= 2m":   func(th Thresholds) bool { return th.StuckAfter.String() == "2m0s" },
		"slowWork=250ms":   func(th Thresholds) bool { return th.SlowWork.String() == "250ms" },
		"risingDepth=1e3":  func(th Thresholds) bool { return th.RisingDepth == 1000 },
		"memoryRatio=0.95": func(th Thresholds) bool { return th.MemoryRatio == 0.95 },
	} {
		th := DefaultThresholds()
		if err := th.Set(kv); err != nil || !ok(th) {
			t.Errorf("Set(%q) = %v, %+v: want it accepted and set", kv, err, th)
		}
	}
}

// A --thresholds file is a mapping of names to values, refused as --threshold refuses them,
// naming the file once; a file of anything else says what a thresholds file looks like.
func TestThresholdsFileErrorsNameTheFileOnce(t *testing.T) {
	dir := t.TempDir()
	for content, want := range map[string]string{
		"<html><body>hi</body></html>\n": `not a thresholds file: it holds YAML lines of a threshold name and its value, e.g. "stuckAfter: 10m"`,
		"- stuckAfter\n- 10m\n":          "not a thresholds file",
		"apiVersion: v1\nkind: Pod\n":    "not a thresholds file",
		"key: [unclosed\n":               "not a thresholds file",
		"errorRatio: 2\n":                "errorRatio 2: a ratio must be from 0 to 1, e.g. 0.1 for 10%",
		"slowWork: -1m\n":                "slowWork -1m: a duration must be more than 0, e.g. 1s",
		"stuckAfter: abc\n":              "stuckAfter abc: not a duration (use e.g. 30s, 5m)",
		"stuckAfter: 10m\ntypo: 5\n":     `unknown threshold "typo"; names: minEvents,`,
		"backlogDepth: lots\n":           "backlogDepth lots: not a number (use e.g. 100)",
	} {
		f := filepath.Join(dir, "th.yaml")
		if err := os.WriteFile(f, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		th := DefaultThresholds()
		err := th.LoadFile(f)
		if err == nil || !strings.HasPrefix(err.Error(), "--thresholds "+f+": "+want) {
			t.Errorf("LoadFile of %q = %v, want %q", content, err, "--thresholds "+f+": "+want)
			continue
		}
		if n := strings.Count(err.Error(), f); n != 1 {
			t.Errorf("LoadFile of %q = %v: names the file %d times", content, err, n)
		}
	}
	missing := filepath.Join(dir, "nope.yaml")
	th := DefaultThresholds()
	if err := th.LoadFile(missing); err == nil || err.Error() != "--thresholds "+missing+": no such file or directory" {
		t.Errorf("LoadFile of a missing file = %v", err)
	}
	f := filepath.Join(dir, "ok.yaml")
	if err := os.WriteFile(f, []byte("backlogDepth: 5\nslowWork: 250ms\nerrorRatio: 0.2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	th = DefaultThresholds()
	if err := th.LoadFile(f); err != nil || th.BacklogDepth != 5 || th.SlowWork.String() != "250ms" || th.ErrorRatio != 0.2 {
		t.Errorf("LoadFile = %v, %+v", err, th)
	}
	if err := os.WriteFile(f, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := th.LoadFile(f); err != nil {
		t.Errorf("an empty file sets nothing, got %v", err)
	}
}
