package diff_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/run"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/collect"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/snapshot"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view/diff"
)

// cfg is what `report --from-snapshot` judges with when given no flags.
var cfg = run.ReportConfig{Thresholds: findings.DefaultThresholds(),
	Read: source.Options{Interval: 100 * time.Millisecond, Timeout: 5 * time.Second}}

// takeSnapshot snapshots one endpoint serving the saved pages in turn (the last one again
// after them): the same page twice stands still, the two pages in turn work and fail.
func takeSnapshot(t *testing.T, files ...string) *snapshot.Snapshot {
	t.Helper()
	var pages [][]byte
	for _, p := range files {
		b, err := os.ReadFile(filepath.Join("../../../testdata/pages", p))
		if err != nil {
			t.Fatal(err)
		}
		_, page, _ := bytes.Cut(b, []byte("\n")) // the sample-time comment
		pages = append(pages, page)
	}
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Write(pages[min(int(n.Add(1))-1, len(pages)-1)])
	}))
	defer srv.Close()
	ctx := context.Background()
	rec := snapshot.Record(collect.New(collect.Config{URLs: []string{srv.URL + "/metrics"}}, nil))
	var taken time.Time
	res, err := run.ReportWith(ctx, cfg, run.Env{Source: rec, Now: func() time.Time { taken = time.Now(); return taken }})
	if err != nil {
		t.Fatal(err)
	}
	s := rec.Snapshot(ctx, snapshot.Manifest{Taken: taken, Interval: cfg.Read.Interval.String()})
	if s.Report, err = json.MarshalIndent(res.Report, "", "  "); err != nil {
		t.Fatal(err)
	}
	return s
}

// save writes s to a file of dir and reads it back, as the commands do.
func save(t *testing.T, dir, name string, s *snapshot.Snapshot) (string, *snapshot.Snapshot) {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := s.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := snapshot.Load(context.Background(), path, snapshot.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	return path, back
}

// reportFromSnapshot is the report `report --from-snapshot` prints: the snapshot's pages replayed,
// dated when it was taken.
func reportFromSnapshot(t *testing.T, s *snapshot.Snapshot) view.Report {
	t.Helper()
	r, err := fromPages(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// fromPages makes the report of a snapshot from its pages, as pkg/run does for diff.
func fromPages(ctx context.Context, s *snapshot.Snapshot) (view.Report, error) {
	res, err := run.ReportWith(ctx, cfg, run.Env{Source: snapshot.NewReplay(s), Now: func() time.Time { return s.Manifest.Taken }})
	if err != nil {
		return view.Report{}, err
	}
	return res.Report, nil
}

func jsonOf(t *testing.T, r view.Report) string {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A snapshot whose report.json was edited to say the opposite of its pages: diff judges it
// from the pages, as `report --from-snapshot` does, so the two commands agree (the same
// summary, the same findings, the same --fail-on), and a warning says the stored report was
// not used. An untouched snapshot gives its stored report, without a warning.
func TestLoadJudgesASnapshotFromItsPages(t *testing.T) {
	still := takeSnapshot(t, "controller-runtime-1.prom", "controller-runtime-1.prom")
	busy := takeSnapshot(t, "controller-runtime-1.prom", "controller-runtime-2.prom")
	dir := t.TempDir()
	stillPath, stillBack := save(t, dir, "still.tar.gz", still)
	busyPath, busyBack := save(t, dir, "busy.tar.gz", busy)
	stillReport, busyReport := reportFromSnapshot(t, stillBack), reportFromSnapshot(t, busyBack)
	if busyReport.Summary.Warning == 0 || stillReport.Summary.Warning+stillReport.Summary.Critical != 0 {
		t.Fatalf("the fixture must be healthy standing still and fail working: %+v, %+v", stillReport.Summary, busyReport.Summary)
	}

	// Untouched: the stored report is the one the pages give.
	for path, want := range map[string]view.Report{stillPath: stillReport, busyPath: busyReport} {
		l, err := diff.Load(context.Background(), path, fromPages)
		if err != nil || l.Warning != "" || jsonOf(t, l.Report) != jsonOf(t, want) {
			t.Errorf("%s untouched: err %v, warning %q, same report %v", path, err, l.Warning, jsonOf(t, l.Report) == jsonOf(t, want))
		}
	}

	// Each snapshot's report.json swapped for the other's: healthy pages that claim a fault,
	// faulty pages that claim health.
	healthyClaim, faultClaim := still.Report, busy.Report
	busy.Report, still.Report = healthyClaim, faultClaim
	lyingBusy, _ := save(t, dir, "lying-busy.tar.gz", busy)
	lyingStill, _ := save(t, dir, "lying-still.tar.gz", still)
	for _, tc := range []struct {
		path string
		want view.Report
	}{{lyingBusy, busyReport}, {lyingStill, stillReport}} {
		l, err := diff.Load(context.Background(), tc.path, fromPages)
		if err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		if got, want := jsonOf(t, l.Report), jsonOf(t, tc.want); got != want {
			t.Errorf("%s: diff's report is not report --from-snapshot's: summary %+v, want %+v", tc.path, l.Report.Summary, tc.want.Summary)
		}
		if !strings.Contains(l.Warning, tc.path+": the report the snapshot stores (report.json) disagrees with its pages and was not used") {
			t.Errorf("%s: warning %q", tc.path, l.Warning)
		}
	}

	// diff still -> lying-busy finds what report --from-snapshot finds: warnings appeared
	// (--fail-on new-warning exits 3, as report --fail-on warning does); the stored report
	// would have said healthy, nothing appeared.
	before, _ := diff.Load(context.Background(), stillPath, fromPages)
	after, _ := diff.Load(context.Background(), lyingBusy, fromPages)
	d := diff.Compare(before.Report, after.Report, stillPath, lyingBusy)
	if !reflect.DeepEqual(d.After.Summary, busyReport.Summary) || d.Worst() != findings.Warning || len(d.Appeared) != busyReport.Summary.Warning {
		t.Errorf("diff still lying-busy: after %+v worst %q appeared %d, want %+v and its warnings appeared", d.After.Summary, d.Worst(), len(d.Appeared), busyReport.Summary)
	}
}
