package cmd

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

const pair = "../../testdata/pages/controller-runtime-1.prom,../../testdata/pages/controller-runtime-2.prom"

// runReportCmd executes `report args...` with test streams and returns stdout, stderr and the
// exit code the error maps to.
func runReportCmd(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return runVerb(t, NewReportCmd, args...)
}

// Each -o value picks its own rendering of the same report.
func TestFormats(t *testing.T) {
	for format, marker := range map[string]string{
		"":         "7. FINDINGS",
		"text":     "7. FINDINGS",
		"markdown": "## 7. Findings",
		"html":     "<!DOCTYPE html>",
		"yaml":     "kind: Report",
		"json":     `"kind": "Report"`,
	} {
		out, errOut, code := runReportCmd(t, "--from-file", pair, "-o", format)
		if code != cli.ExitOK || !strings.Contains(out, marker) {
			t.Errorf("-o %q: exit %d, stdout lacks %q:\n%.300s\n%s", format, code, marker, out, errOut)
		}
	}
	var doc struct{ Summary struct{ Warning int } }
	out, _, _ := runReportCmd(t, "--from-file", pair, "-o", "json")
	if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.Summary.Warning == 0 {
		t.Fatalf("the pages hold warnings (retry storm, saturation): %v %+v", err, doc)
	}
}

// --fail-on sets exit code 3 when a finding reaches it, after printing the report.
func TestFailOn(t *testing.T) {
	for _, tt := range []struct {
		level string
		want  int
	}{{"none", cli.ExitOK}, {"critical", cli.ExitOK}, {"warning", cli.ExitFindings}} {
		out, errOut, code := runReportCmd(t, "--from-file", pair, "--fail-on", tt.level)
		if code != tt.want || !strings.Contains(out, "7. FINDINGS") {
			t.Errorf("--fail-on %s: exit %d, want %d\n%s", tt.level, code, tt.want, errOut)
		}
	}
}

// --threshold and --thresholds FILE reach the findings: with the error ratio out of reach the
// retry storm is gone, the rest stays.
func TestThresholds(t *testing.T) {
	checks := func(args ...string) string {
		out, errOut, code := runReportCmd(t, append([]string{"--from-file", pair, "-o", "json"}, args...)...)
		var doc struct{ Findings []struct{ Check string } }
		if code != cli.ExitOK || json.Unmarshal([]byte(out), &doc) != nil {
			t.Fatalf("%v: exit %d\n%s", args, code, errOut)
		}
		var s []string
		for _, f := range doc.Findings {
			s = append(s, f.Check)
		}
		return strings.Join(s, " ")
	}
	if got := checks(); !strings.Contains(got, "retry-storm") {
		t.Fatalf("default thresholds: %s", got)
	}
	file := filepath.Join(t.TempDir(), "th.yaml")
	if err := os.WriteFile(file, []byte("errorRatio: 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--threshold", "errorRatio=1"}, {"--thresholds", file}} {
		if got := checks(args...); strings.Contains(got, "retry-storm") || !strings.Contains(got, "backlog-growing") {
			t.Errorf("%v: %s", args, got)
		}
	}
}

// --workers and --target-queue-wait reach the capacity section: the queue without a workers
// metric is modelled with the given number, against the given target.
func TestCapacityFlags(t *testing.T) {
	capacity := func(args ...string) map[string]view.Capacity {
		out, errOut, code := runReportCmd(t, append([]string{"--from-file", pair, "-o", "json"}, args...)...)
		var doc struct{ Capacity []view.Capacity }
		if code != cli.ExitOK || json.Unmarshal([]byte(out), &doc) != nil {
			t.Fatalf("%v: exit %d\n%s", args, code, errOut)
		}
		m := map[string]view.Capacity{}
		for _, c := range doc.Capacity {
			m[c.Queue] = c
		}
		return m
	}
	c, ok := capacity()["plain_worker"]
	if !ok || c.Workers != nil || c.TargetWaitP99Seconds != 1 {
		t.Fatalf("plain_worker by default: %+v", c)
	}
	c = capacity("--workers", "plain_worker=3", "--target-queue-wait", "250ms")["plain_worker"]
	if c.Workers == nil || *c.Workers != 3 || c.WorkersFrom != "--workers" || c.TargetWaitP99Seconds != 0.25 || c.Utilisation == nil {
		t.Errorf("plain_worker with --workers plain_worker=3: %+v", c)
	}
}

func TestReportUsageErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--from-file", pair, "--fail-on", "sometimes"}, "--fail-on must be none, warning or critical"},
		{[]string{"--from-file", pair, "-o", "table"}, "unknown output format"},
		{[]string{"--from-file", pair, "--threshold", "stuckAfter=soon"}, "--threshold stuckAfter=soon: not a duration (use e.g. 30s, 5m)"},
		{[]string{"--from-file", pair, "--threshold", "nope=1"}, `unknown threshold "nope"`},
		{[]string{"--from-file", pair, "--threshold", "errorRatio=-1"}, "--threshold errorRatio=-1: a ratio must be from 0 to 1"},
		{[]string{"--from-file", pair, "--thresholds", "/nonexistent.yaml"}, "--thresholds /nonexistent.yaml: no such file or directory"},
		{[]string{"--from-file", pair, "--generation-resource", "widgets"}, "RESOURCE.GROUP/VERSION"},
		{[]string{"--from-file", pair, "--memory-limit", "lots"}, "--memory-limit"},
		{[]string{"--from-file", pair, "--controller-kind", "reconciler"}, "want NAME=GROUP/KIND"},
		{[]string{"--from-file", pair, "--interval", "-1s"}, "--interval"},
		{[]string{"--from-file", pair, "--since", "-1h"}, "--since must be positive"},
		{[]string{"--from-file", pair, "--workers", "deployment"}, "use QUEUE=N"},
		{[]string{"--from-file", pair, "--workers", "deployment=0"}, "use QUEUE=N"},
		{[]string{"--from-file", pair, "--workers", "deployment=99999999999"}, `--workers "deployment=99999999999": 99999999999 workers is more than any process runs; give N from 1 to 10000`},
		{[]string{"--from-file", pair, "--workers", "deployment=10001"}, "give N from 1 to 10000"},
		{[]string{"--from-file", pair, "--target-queue-wait", "-1s"}, "--target-queue-wait must be positive"},
		{[]string{"--from-file", pair, "--slo", "queue-wait-p99=0s"}, "--slo queue-wait-p99=0s: a duration must be more than 0, e.g. 1s"},
		{[]string{"--from-file", pair, "--slo", "queue-wait=1s"}, `--slo queue-wait=1s: unknown objective "queue-wait" (did you mean queue-wait-p99?)`},
		{[]string{"--from-file", pair, "--slo", "queue-wait-p99=2s", "--target-queue-wait", "1s"}, "--target-queue-wait 1s and --slo queue-wait-p99=2s disagree"},
	} {
		_, errOut, code := runReportCmd(t, tt.args...)
		if code != cli.ExitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, want %d with %q:\n%s", tt.args, code, cli.ExitUsage, tt.want, errOut)
		}
	}
}

// Nothing readable: the report is printed, with the failure as a finding, and the exit code
// is 1.
func TestNothingReadable(t *testing.T) {
	nope := filepath.Join(t.TempDir(), "nope.prom")
	if err := os.WriteFile(nope, []byte("not a metrics page\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runReportCmd(t, "--from-file", nope)
	if code != cli.ExitError || !strings.Contains(out, "scrape-failed") || !strings.Contains(errOut, "no target could be read") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

// An endpoint that answers 200 with binary bytes is a target that could not be read (finding
// scrape-failed, naming what came back), not one that "serves metrics but no workqueue_*
// series" (no-workqueue-metrics, CD102): that finding stays for valid pages without queues.
func TestReportOnANonTextAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/binary":
			w.Header().Set("Content-Type", "application/octet-stream")
			page := make([]byte, 1<<20)
			for i := range page {
				page[i] = byte(i*7 + i>>8)
			}
			w.Write(page)
		case "/no-queues":
			w.Write([]byte("# TYPE go_goroutines gauge\ngo_goroutines 42\n"))
		}
	}))
	defer srv.Close()
	binary, noQueues := srv.URL+"/binary", srv.URL+"/no-queues"

	// report returns the findings by target, stderr and the exit code.
	report := func(urls ...string) (map[string][]findings.Finding, string, int) {
		t.Helper()
		args := []string{"-o", "json", "--interval", "0"}
		for _, u := range urls {
			args = append(args, "--url", u)
		}
		out, errOut, code := runReportCmd(t, args...)
		var r struct {
			Findings []findings.Finding `json:"findings"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("report -o json is not JSON (%v):\n%s\n%s", err, out, errOut)
		}
		byTarget := map[string][]findings.Finding{}
		for _, f := range r.Findings {
			byTarget[f.Target] = append(byTarget[f.Target], f)
		}
		return byTarget, errOut, code
	}

	byTarget, errOut, code := report(binary, noQueues)
	if code != cli.ExitOK {
		t.Fatalf("one target was read: exit %d\n%s", code, errOut)
	}
	if f := byTarget[binary]; len(f) != 1 || f[0].Check != "scrape-failed" ||
		!strings.Contains(f[0].Summary, `not Prometheus text metrics (Content-Type "application/octet-stream")`) ||
		!strings.Contains(f[0].Summary, "is this the metrics port?") {
		t.Errorf("the binary answer: findings %+v, want one scrape-failed naming what came back", f)
	}
	if f := byTarget[noQueues]; len(f) != 1 || f[0].Check != "no-workqueue-metrics" || f[0].Code != "CD102" {
		t.Errorf("the valid page without queues: findings %+v, want CD102", f)
	}

	// Alone, the binary answer means that no target could be read.
	byTarget, errOut, code = report(binary)
	if code != cli.ExitError || !strings.Contains(errOut, "no target could be read") || len(byTarget[binary]) != 1 ||
		byTarget[binary][0].Check != "scrape-failed" {
		t.Errorf("a lone binary answer: exit %d, findings %+v\n%s", code, byTarget, errOut)
	}
}
