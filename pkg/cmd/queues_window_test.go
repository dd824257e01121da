package cmd

import (
	"strings"
	"testing"
)

// Pages taken 30 s apart read with --interval 10s: one worker cannot finish 30 s of work in
// 10 s, so the window is said to be wrong and nothing is judged on it; with the right
// --interval nothing is said.
func TestWorkBeyondTheWindowIsSaid(t *testing.T) {
	a, b := queuesPages+"untimed/busy-1.prom", queuesPages+"untimed/busy-2.prom"
	out, errOut, err := runQueues(t, "", "--from-file", a+","+b, "--interval", "10s")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if !strings.Contains(errOut, "the window cannot be 10s: widget's items took 30s of work to finish in it, more than its 1 worker can do") {
		t.Errorf("stderr does not say that the window is wrong:\n%s", errOut)
	}
	if !hasCells(out, "widget", "-", "lifetime") {
		t.Errorf("want widget's lifetime figures, without rates:\n%s", out)
	}

	out, errOut, err = runQueues(t, "", "--from-file", a+","+b, "--interval", "30s")
	if err != nil || strings.Contains(errOut, "window cannot be") || !hasCells(out, "widget", "10", "30s") {
		t.Errorf("the right window: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
}
