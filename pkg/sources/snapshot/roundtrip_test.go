package snapshot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/run"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/collect"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/scrape"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/snapshot"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

const testToken = "snapshot-test-token-5f1d2c"

// servePages serves the saved pages in turn (the last one again after them), without their
// sample-time comments, to callers that send the bearer token.
func servePages(t *testing.T, paths ...string) *httptest.Server {
	t.Helper()
	var pages [][]byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var kept []string
		for _, l := range strings.SplitAfter(string(b), "\n") {
			if !strings.HasPrefix(l, "# ctrldiag-sample-time:") {
				kept = append(kept, l)
			}
		}
		pages = append(pages, []byte(strings.Join(kept, "")))
	}
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+testToken {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		i := min(int(n.Add(1))-1, len(pages)-1)
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		w.Write(pages[i])
	}))
	t.Cleanup(srv.Close)
	return srv
}

func reportJSON(t *testing.T, ctx context.Context, cfg run.ReportConfig, env run.Env) []byte {
	t.Helper()
	res, err := run.ReportWith(ctx, cfg, env)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(res.Report, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The report made from a snapshot is the report the live run made: the same JSON, to the
// byte, generatedAt included (a snapshot's report is dated when the snapshot was taken).
// The bearer token the run used is in no member of the file.
func TestReportFromSnapshotEqualsTheLiveReport(t *testing.T) {
	ctx := context.Background()
	redact.Add(testToken)
	srv := servePages(t, "../../../testdata/pages/controller-runtime-1.prom", "../../../testdata/pages/controller-runtime-2.prom")
	live := collect.New(collect.Config{URLs: []string{srv.URL + "/metrics"}, HTTP: scrape.HTTPConfig{Token: testToken}}, nil)
	cfg := run.ReportConfig{Thresholds: findings.DefaultThresholds(), Scope: source.Scope{},
		Read: source.Options{Interval: 100 * time.Millisecond, Timeout: 5 * time.Second}}
	rec := snapshot.Record(live)
	var taken time.Time
	liveJSON := reportJSON(t, ctx, cfg, run.Env{Source: rec, Now: func() time.Time { taken = time.Now(); return taken }})

	snap := rec.Snapshot(ctx, snapshot.Manifest{Taken: taken, Interval: cfg.Read.Interval.String()})
	snap.Report = liveJSON
	var file bytes.Buffer
	if err := snap.Write(&file); err != nil {
		t.Fatal(err)
	}
	members, err := snapshot.ReadArchive(bytes.NewReader(file.Bytes()), snapshot.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range members {
		names = append(names, m.Name)
		if bytes.Contains(m.Data, []byte(testToken)) {
			t.Errorf("member %s holds the bearer token", m.Name)
		}
	}
	want := []string{snapshot.ManifestName, snapshot.InventoryName, snapshot.ResultsName, snapshot.EventsName, snapshot.ReportName, "pages/000-0.prom", "pages/000-1.prom"}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("members %v, want %v", names, want)
	}

	back, err := snapshot.Read(bytes.NewReader(file.Bytes()), snapshot.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if !back.Manifest.Taken.Equal(taken) || back.Manifest.SchemaVersion != snapshot.SchemaVersion {
		t.Errorf("manifest %+v", back.Manifest)
	}
	replayJSON := reportJSON(t, ctx, cfg, run.Env{Source: snapshot.NewReplay(back), Now: func() time.Time { return back.Manifest.Taken }})
	if !bytes.Equal(liveJSON, replayJSON) {
		t.Errorf("the report from the snapshot differs from the live one:\n%s", firstDifference(liveJSON, replayJSON))
	}
	if !bytes.Equal(back.Report, liveJSON) {
		t.Errorf("the stored report is not the live one")
	}
	if !strings.Contains(string(liveJSON), `"widget"`) || !strings.Contains(string(liveJSON), `"addsPerSecond": `) {
		t.Errorf("the live report read nothing worth comparing:\n%s", liveJSON)
	}
}

// firstDifference shows the first line where a and b differ.
func firstDifference(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < min(len(al), len(bl)); i++ {
		if al[i] != bl[i] {
			return "line " + strings.TrimSpace(al[i]) + "\n  vs " + strings.TrimSpace(bl[i])
		}
	}
	return "one is longer"
}
