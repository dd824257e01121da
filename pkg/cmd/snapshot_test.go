package cmd

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
)

const token = "cmd-snapshot-token-9e3b1f"

// serve serves the two saved pages of a controller in turn, without their sample-time
// comments, to callers with the token.
func serve(t *testing.T) string {
	t.Helper()
	var pages [][]byte
	for _, p := range []string{"controller-runtime-1.prom", "controller-runtime-2.prom"} {
		b, err := os.ReadFile(filepath.Join("../../testdata/pages", p))
		if err != nil {
			t.Fatal(err)
		}
		_, rest, _ := bytes.Cut(b, []byte("\n")) // the sample-time comment
		pages = append(pages, rest)
	}
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		w.Write(pages[min(int(n.Add(1))-1, 1)])
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/metrics"
}

// The report a snapshot run prints, and the one `report --from-snapshot` makes of its file,
// are the same JSON; queues reads the file too; the token is nowhere in the file.
func TestSnapshotThenReportFromSnapshot(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.tar.gz")
	live, errOut, code := runVerb(t, NewSnapshotCmd, "--url", serve(t), "--token", token, "--interval", "200ms", "-f", file, "-o", "json")
	if code != cli.ExitOK || !strings.Contains(errOut, "written to "+file) {
		t.Fatalf("snapshot: exit %d\n%s", code, errOut)
	}
	offline, errOut, code := runVerb(t, NewReportCmd, "--from-snapshot", file, "-o", "json")
	if code != cli.ExitOK {
		t.Fatalf("report --from-snapshot: exit %d\n%s", code, errOut)
	}
	if live != offline {
		t.Errorf("report --from-snapshot differs from the live report:\nlive:\n%.2000s\noffline:\n%.2000s", live, offline)
	}
	if !strings.Contains(live, `"completionsPerSecond": `) {
		t.Errorf("the live report read no rates:\n%.1000s", live)
	}
	q, errOut, code := runVerb(t, NewQueuesCmd, "--from-snapshot", file)
	if code != cli.ExitOK || !strings.Contains(q, "widget") {
		t.Errorf("queues --from-snapshot: exit %d\n%s\n%s", code, q, errOut)
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	tarball, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(tarball, []byte(token)) || !bytes.Contains(tarball, []byte("workqueue_adds_total")) {
		t.Errorf("the file holds the token, or no page")
	}
	if st, _ := os.Stat(file); st.Mode().Perm() != 0o600 {
		t.Errorf("the snapshot is mode %v, want 0600", st.Mode().Perm())
	}
}

// Wrong use is a usage error; a file that is no snapshot is one clear error.
func TestSnapshotErrors(t *testing.T) {
	if _, errOut, code := runVerb(t, NewSnapshotCmd, "--url", "http://localhost:1/metrics"); code != cli.ExitUsage || !strings.Contains(errOut, "-f FILE is required") {
		t.Errorf("no -f: exit %d %s", code, errOut)
	}
	dir := t.TempDir()
	if _, errOut, code := runVerb(t, NewReportCmd, "--from-snapshot", filepath.Join(dir, "x"), "--url", "http://localhost:1/metrics"); code != cli.ExitUsage || !strings.Contains(errOut, "give no TARGET") {
		t.Errorf("--from-snapshot with --url: exit %d %s", code, errOut)
	}
	page := filepath.Join(dir, "page.prom")
	os.WriteFile(page, []byte("workqueue_depth 1\n"), 0o600)
	if _, errOut, code := runVerb(t, NewReportCmd, "--from-snapshot", page); code != cli.ExitError || !strings.Contains(errOut, "not a snapshot") {
		t.Errorf("a page as snapshot: exit %d %s", code, errOut)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the directory holds %d entries, want only the page", len(entries))
	}
}

// A snapshot taken --from-snapshot holds the same pages and gives the same report.
func TestSnapshotOfASnapshot(t *testing.T) {
	dir := t.TempDir()
	first, second := filepath.Join(dir, "1.tar.gz"), filepath.Join(dir, "2.tar.gz")
	a, errOut, code := runVerb(t, NewSnapshotCmd, "--url", serve(t), "--token", token, "--interval", "200ms", "-f", first, "-o", "json")
	if code != cli.ExitOK {
		t.Fatalf("snapshot: %d %s", code, errOut)
	}
	if _, errOut, code := runVerb(t, NewSnapshotCmd, "--from-snapshot", first, "-f", second); code != cli.ExitOK {
		t.Fatalf("snapshot --from-snapshot: %d %s", code, errOut)
	}
	b, errOut, code := runVerb(t, NewReportCmd, "--from-snapshot", second, "-o", "json")
	if code != cli.ExitOK || a != b {
		t.Errorf("the snapshot of the snapshot gives another report: exit %d %s\n%.1500s", code, errOut, b)
	}
}
