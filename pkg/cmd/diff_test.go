package cmd

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
)

func runDiff(t *testing.T, args ...string) (string, string, int) {
	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	return execute(t, NewDiffCmd(streams), out, errOut, args...)
}

func runSnapshot(t *testing.T, args ...string) (string, string, int) {
	return runVerb(t, NewSnapshotCmd, args...)
}

// diffPages are a controller's two saved diffPages without their sample-time comments: between them
// the widget queue retries and errors.
func diffPages(t *testing.T) (first, second []byte) {
	t.Helper()
	var out [2][]byte
	for i, p := range []string{"controller-runtime-1.prom", "controller-runtime-2.prom"} {
		b, err := os.ReadFile(filepath.Join("../../testdata/pages", p))
		if err != nil {
			t.Fatal(err)
		}
		_, out[i], _ = bytes.Cut(b, []byte("\n"))
	}
	return out[0], out[1]
}

// One endpoint, snapshotted while it stands still (the same page twice) and while it works
// (the two pages in turn): diff shows the rates that came and the findings that appeared, and
// --fail-on new-warning exits 3; the other way round they resolved, and nothing fails.
func TestDiffOfTwoSnapshots(t *testing.T) {
	dir := t.TempDir()
	before, after := filepath.Join(dir, "before.tar.gz"), filepath.Join(dir, "after.tar.gz")
	url := stillThenWorking(t, before, after)

	text, errOut, code := runDiff(t, before, after)
	if code != cli.ExitOK {
		t.Fatalf("diff: exit %d %s", code, errOut)
	}
	t.Logf("diff before after:\n%s", text)
	for _, want := range []string{"QUEUES", "widget", "retries/s", "FINDINGS APPEARED", "WARNING"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	if _, _, code := runDiff(t, before, after, "--fail-on", "new-warning"); code != cli.ExitFindings {
		t.Errorf("--fail-on new-warning: exit %d, want %d", code, cli.ExitFindings)
	}
	js, _, code := runDiff(t, after, before, "-o", "json", "--fail-on", "new-warning")
	var d struct {
		Kind               string
		Appeared, Resolved []struct{ Code, Severity string }
	}
	if code != cli.ExitOK || json.Unmarshal([]byte(js), &d) != nil || d.Kind != "ReportDiff" || len(d.Appeared) != 0 || len(d.Resolved) == 0 {
		t.Errorf("after -> before: exit %d, %+v\n%s", code, d, js)
	}
	md, _, _ := runDiff(t, before, after, "-o", "markdown")
	if !strings.Contains(md, "## Findings appeared") || !strings.Contains(md, "| CONTROLLER | QUEUE |") {
		t.Errorf("markdown:\n%s", md)
	}

	// A `report -o json` file compares with a snapshot.
	reportJSON := filepath.Join(dir, "after.json")
	out, _, code := runSnapshot(t, "--url", url, "--interval", "200ms", "-f", filepath.Join(dir, "again.tar.gz"), "-o", "json")
	if code != cli.ExitOK || os.WriteFile(reportJSON, []byte(out), 0o600) != nil {
		t.Fatalf("snapshot -o json: exit %d", code)
	}
	if _, errOut, code := runDiff(t, before, reportJSON); code != cli.ExitOK {
		t.Errorf("diff snapshot report.json: exit %d %s", code, errOut)
	}
}

// Wrong use is a usage error; a file that is neither is one clear error.
func TestDiffErrors(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "page.prom")
	os.WriteFile(page, []byte("workqueue_depth 1\n"), 0o600)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{page}, cli.ExitUsage, "two files"},
		{[]string{page, page, "--fail-on", "warning"}, cli.ExitUsage, "new-warning"},
		{[]string{page, page, "-o", "html"}, cli.ExitUsage, "unknown output format"},
		{[]string{page, page}, cli.ExitError, "neither a snapshot nor"},
		{[]string{filepath.Join(dir, "missing"), page}, cli.ExitError, "cannot read"},
	} {
		_, errOut, code := runDiff(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d %q, want %d with %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
}

// stillThenWorking snapshots one endpoint into still while it stands still (the same page
// twice), then into working while it works (the two pages in turn). It returns the
// endpoint's URL, working still, served until the test ends.
func stillThenWorking(t *testing.T, still, working string) string {
	t.Helper()
	first, second := diffPages(t)
	var busy atomic.Bool
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if busy.Load() && n.Add(1)%2 == 0 {
			w.Write(second)
			return
		}
		w.Write(first)
	}))
	t.Cleanup(srv.Close)
	if _, errOut, code := runSnapshot(t, "--url", srv.URL+"/metrics", "--interval", "200ms", "-f", still); code != cli.ExitOK {
		t.Fatalf("snapshot %s: %d %s", still, code, errOut)
	}
	busy.Store(true)
	if _, errOut, code := runSnapshot(t, "--url", srv.URL+"/metrics", "--interval", "200ms", "-f", working); code != cli.ExitOK {
		t.Fatalf("snapshot %s: %d %s", working, code, errOut)
	}
	return srv.URL + "/metrics"
}
