package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// restartPage is a controller-runtime page taken at taken (Unix seconds) of a process started
// at start (omitted when start is 0) that has added and completed n items.
func restartPage(taken, start, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# ctrldiag-sample-time: %s\n", unix(taken))
	if start > 0 {
		fmt.Fprintf(&b, "# TYPE process_start_time_seconds gauge\nprocess_start_time_seconds %d\n", start)
	}
	fmt.Fprintf(&b, "# TYPE workqueue_adds_total counter\nworkqueue_adds_total{controller=\"widget\",name=\"widget\"} %d\n", n)
	fmt.Fprintf(&b, "# TYPE workqueue_depth gauge\nworkqueue_depth{controller=\"widget\",name=\"widget\"} 0\n")
	fmt.Fprintf(&b, "# TYPE controller_runtime_reconcile_total counter\ncontroller_runtime_reconcile_total{controller=\"widget\",result=\"success\"} %d\n", n)
	return b.String()
}

func unix(s int) string {
	return time.Unix(int64(s), 0).UTC().Format(time.RFC3339)
}

// base is when the first page of a pair is taken.
var base = int(time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC).Unix())

// A target that restarted between its samples is said to have, and its rates are taken over
// the new process's life only: never counts of two processes over the window.
func TestRestartBetweenSamples(t *testing.T) {
	for name, tt := range map[string]struct {
		start        int // the second process's start, 0 for a page without it
		window, adds string
		why          string
	}{
		// Started 10 s before the second page: 100 adds in 10 s, not in the 30 s window.
		"start time known": {start: base + 20, window: "10s since restart", adds: "10", why: "process_start_time_seconds changed"},
		// Without the start time, the counters that fell tell it; no rate can be taken.
		"counters fell": {window: "lifetime since restart", adds: "-", why: "the counter"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			firstStart := base - 3600
			if tt.start == 0 {
				firstStart = 0
			}
			a, b := filepath.Join(dir, "a.prom"), filepath.Join(dir, "b.prom")
			if err := os.WriteFile(a, []byte(restartPage(base, firstStart, 5000)), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(b, []byte(restartPage(base+30, tt.start, 100)), 0o600); err != nil {
				t.Fatal(err)
			}
			out, errOut, err := runQueues(t, "", "--from-file", a+","+b)
			if err != nil {
				t.Fatalf("%v\n%s", err, errOut)
			}
			if !strings.Contains(errOut, "restarted between its samples") || !strings.Contains(errOut, tt.why) {
				t.Errorf("stderr does not say the target restarted (%s):\n%s", tt.why, errOut)
			}
			if !hasCells(out, "widget", tt.adds, tt.window) {
				t.Errorf("want the widget row with ADDS/s %s over %q:\n%s", tt.adds, tt.window, out)
			}
			js, _, err := runQueues(t, "", "--from-file", a+","+b, "-o", "json")
			if err != nil {
				t.Fatal(err)
			}
			var l struct {
				Window string
				Items  []struct {
					Window        string
					AddsPerSecond *float64
				}
			}
			if err := json.Unmarshal([]byte(js), &l); err != nil || len(l.Items) != 1 {
				t.Fatalf("%v\n%s", err, js)
			}
			if l.Window != tt.window || l.Items[0].Window != tt.window {
				t.Errorf("json window %q / %q, want %q", l.Window, l.Items[0].Window, tt.window)
			}
		})
	}
}

// A process that did not restart keeps its window, whatever its start time says.
func TestNoRestartKeepsTheWindow(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.prom"), filepath.Join(dir, "b.prom")
	os.WriteFile(a, []byte(restartPage(base, base-3600, 5000)), 0o600)
	os.WriteFile(b, []byte(restartPage(base+30, base-3600, 5300)), 0o600)
	out, errOut, err := runQueues(t, "", "--from-file", a+","+b)
	if err != nil || strings.Contains(errOut, "restarted") || !hasCells(out, "widget", "10", "30s") {
		t.Errorf("%v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
}

// hasCells reports whether a row of the table names queue and holds every cell.
func hasCells(table, queue string, cells ...string) bool {
	for _, line := range strings.Split(table, "\n") {
		f := strings.Split(strings.Join(strings.Fields(strings.ReplaceAll(line, " since ", "_since_")), " "), " ")
		if !slices.Contains(f, queue) {
			continue
		}
		all := true
		for _, c := range cells {
			found := false
			for _, x := range f {
				found = found || x == strings.ReplaceAll(c, " since ", "_since_")
			}
			all = all && found
		}
		if all {
			return true
		}
	}
	return false
}
