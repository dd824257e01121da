package promsource_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/promsource"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// downsampledThanos answers like a Thanos Query over a bucket that holds the series only at
// the resolutions held (max_source_resolution values: 0s, 5m, 1h): asked for finer data, it
// finds nothing, as when the compactor deleted raw data past its retention. It lists stores
// unless prometheus, and records the max_source_resolution of every query.
type downsampledThanos struct {
	f          *fakeThanos
	held       []string
	prometheus bool

	mu    sync.Mutex
	asked []string
}

func (d *downsampledThanos) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/api/v1/stores" {
		if d.prometheus {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte(`{"status":"success","data":{"store":[]}}`))
		return
	}
	_ = r.ParseForm()
	res := r.Form.Get("max_source_resolution")
	d.mu.Lock()
	d.asked = append(d.asked, res)
	d.mu.Unlock()
	// Data of resolution h is read by any query allowing h or coarser.
	order := []string{"0s", "5m", "1h"}
	for _, h := range d.held {
		if slices.Index(order, h) <= slices.Index(order, res) {
			d.f.ServeHTTP(w, r)
			return
		}
	}
	kind := "vector"
	if strings.HasSuffix(r.Form.Get("query"), "]") {
		kind = "matrix"
	}
	_, _ = w.Write([]byte(`{"status":"success","data":{"resultType":"` + kind + `","result":[]}}`))
}

// With auto, a window whose data is gone at the resolution auto chose (raw deleted past its
// retention) is asked once more one level coarser, and read there, saying so on stderr, in
// -o json's resolution and in the text outputs; asked for raw explicitly, a recent window or
// a server that does not downsample are not asked again, and neither is a coarser level than
// the next one: the error then says when coarser data may hold the targets.
func TestCoarserWhenNothingAtTheResolutionChosen(t *testing.T) {
	now := time.Unix(1700000600, 0)
	old := now.Add(-30 * 24 * time.Hour)
	for _, tc := range []struct {
		name       string
		at         time.Time
		window     time.Duration
		flag       string
		held       []string
		prometheus bool
		// want is the resolution of -o json, "" when Open must fail; asked the
		// max_source_resolution of the queries of Open, in order.
		want  string
		asked []string
	}{
		{"raw deleted, auto over 10m: 5m", old, 10 * time.Minute, "auto", []string{"5m"}, false,
			"5m: downsampled data used (data up to raw held no series at the window's end)", []string{"0s", "5m"}},
		{"5m deleted, auto over 1h: 1h", old, time.Hour, "auto", []string{"1h"}, false,
			"1h: downsampled data used (data up to 5m held no series at the window's end)", []string{"5m", "1h"}},
		{"raw held: no retry", old, 10 * time.Minute, "auto", []string{"0s", "5m"}, false, "raw", []string{"0s"}},
		{"raw asked for: no retry", old, 10 * time.Minute, "raw", []string{"5m"}, false, "", []string{"0s"}},
		{"only 1h held: one level, not two", old, 10 * time.Minute, "auto", []string{"1h"}, false, "", []string{"0s", "5m"}},
		{"a day old: no 5m data yet, no retry", now.Add(-24 * time.Hour), 10 * time.Minute, "auto", []string{"5m"}, false, "", []string{"0s"}},
		{"5m to 1h needs 10 days", now.Add(-5 * 24 * time.Hour), time.Hour, "auto", []string{"1h"}, false, "", []string{"5m"}},
		{"prometheus: no retry", old, 10 * time.Minute, "auto", []string{"5m"}, true, "", []string{"0s"}},
	} {
		// The failures where data coarser than any asked for may hold the targets (the
		// window is old enough for it, the server downsamples) say so, and how to allow it.
		shortLoss := map[string]string{
			"raw deleted, auto over 10m: 5m": "rates may be off by up to 50 % (5m of counts over 10m)",
			"5m deleted, auto over 1h: 1h":   "rates may be off by up to 100 % (1h of counts over 1h)",
		}
		hints := map[string]string{
			"raw asked for: no retry": "data of resolution 5m may hold them (Thanos keeps coarser data longer): " +
				"--max-source-resolution auto allows it for a --window of 25m or more (5 points of 5m)",
			"only 1h held: one level, not two": "data of resolution 1h may hold them (Thanos keeps coarser data longer): " +
				"--max-source-resolution auto allows it for a --window of 5h or more (5 points of 1h)",
		}
		t.Run(tc.name, func(t *testing.T) {
			d := &downsampledThanos{f: &fakeThanos{start: tc.at.Add(-tc.window), end: tc.at, down: func(int) bool { return false }},
				held: tc.held, prometheus: tc.prometheus}
			srv := httptest.NewServer(d)
			defer srv.Close()
			res, err := promsource.ParseResolution(tc.flag, tc.window)
			if err != nil {
				t.Fatal(err)
			}
			client, err := promsource.NewClient(promsource.ClientConfig{URL: srv.URL, Timeout: 5 * time.Second, MaxSourceResolution: promsource.ResolutionParam(res)})
			if err != nil {
				t.Fatal(err)
			}
			src := promsource.New(promsource.Config{Client: client, At: tc.at, Window: tc.window, Now: now,
				MaxSourceResolution: res, AutoResolution: tc.flag == "auto"})
			inv, err := src.Open(context.Background())
			d.mu.Lock()
			asked := slices.Clone(d.asked)
			d.mu.Unlock()
			if !slices.Equal(asked, tc.asked) {
				t.Errorf("Open asked with max_source_resolution %v, want %v", asked, tc.asked)
			}
			if tc.want == "" {
				if err == nil || !strings.Contains(err.Error(), "holds no controller series") {
					t.Fatalf("Open: %v, want that no series are there", err)
				}
				if retried := len(tc.asked) > 1; retried != strings.Contains(err.Error(), "and again with") {
					t.Errorf("the error does not say whether it asked again (%v): %v", retried, err)
				}
				hint, hinted := hints[tc.name]
				if hinted != strings.Contains(err.Error(), "may hold them") || hinted && !strings.Contains(err.Error(), hint) {
					t.Errorf("want the hint %q (%v) that coarser data may hold the targets: %v", hint, hinted, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if inv.Resolution != tc.want {
				t.Errorf("resolution %q, want %q", inv.Resolution, tc.want)
			}
			warned := strings.Join(inv.Warnings, "\n")
			// Read one level coarser, a window shorter than five points of that data says how
			// far off its rates may be.
			if loss, ok := shortLoss[tc.name]; ok != strings.Contains(warned, "spans fewer than 5 points") || !strings.Contains(warned, loss) {
				t.Errorf("want the loss of a short window said (%v): %q\n%s", ok, loss, warned)
			}
			if retried := len(tc.asked) > 1; retried != strings.Contains(warned, "asked again with max_source_resolution="+tc.asked[len(tc.asked)-1]) ||
				retried != strings.Contains(inv.ResolutionNote, "asked again allowing") {
				t.Errorf("retried %v, but stderr and the text outputs say:\n%s\n%s", retried, warned, inv.ResolutionNote)
			}
			// The window is read where the targets were found.
			rs := src.Read(context.Background(), source.Options{})
			if len(rs) != 2 || rs[0].Err != nil || len(rs[0].Samples) != 2 {
				t.Fatalf("Read: %+v", rs)
			}
			d.mu.Lock()
			defer d.mu.Unlock()
			for _, a := range d.asked[len(tc.asked):] {
				if a != tc.asked[len(tc.asked)-1] {
					t.Errorf("Read asked with max_source_resolution %v, want all %s", d.asked[len(tc.asked):], tc.asked[len(tc.asked)-1])
					break
				}
			}
		})
	}
}

// A cluster asked for that holds nothing at the resolution read, in a fleet whose other
// clusters do, is named with the same hint as a fleet with none: where the window is old
// enough and the server downsamples, coarser data may hold it. A recent window, or a server
// that answers raw, gets the warning without the hint.
func TestMissingClusterSaysCoarserDataMayHoldIt(t *testing.T) {
	now := time.Unix(1700000600, 0)
	for _, tc := range []struct {
		name       string
		at         time.Time
		prometheus bool
		hint       bool
	}{
		{"30 days old, Thanos", now.Add(-30 * 24 * time.Hour), false, true},
		{"a day old, Thanos", now.Add(-24 * time.Hour), false, false},
		{"30 days old, Prometheus", now.Add(-30 * 24 * time.Hour), true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			window := 10 * time.Minute
			d := &downsampledThanos{f: &fakeThanos{start: tc.at.Add(-window), end: tc.at, down: func(int) bool { return false }},
				held: []string{"0s"}, prometheus: tc.prometheus}
			srv := httptest.NewServer(d)
			defer srv.Close()
			client, err := promsource.NewClient(promsource.ClientConfig{URL: srv.URL, Timeout: 5 * time.Second, MaxSourceResolution: "0s"})
			if err != nil {
				t.Fatal(err)
			}
			src := promsource.New(promsource.Config{Client: client, At: tc.at, Window: window, Now: now, MaxSourceResolution: 0,
				AutoResolution: true, Clusters: []string{"a", "b", "c"}, ClusterLabel: "cluster"})
			inv, err := src.Open(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var warning string
			for _, w := range inv.Warnings {
				if strings.HasPrefix(w, "cluster c: ") {
					warning = w
				}
			}
			if !strings.Contains(warning, `holds no controller series with cluster="c"`) || !strings.Contains(warning, "the other clusters are reported") {
				t.Fatalf("no warning that cluster c holds no series: %q", inv.Warnings)
			}
			const hint = "data of resolution 5m may hold them (Thanos keeps coarser data longer): --max-source-resolution auto allows it for a --window of 25m or more"
			if strings.Contains(warning, hint) != tc.hint {
				t.Errorf("the warning has the hint %q: %v, want %v:\n%s", hint, !tc.hint, tc.hint, warning)
			}
		})
	}
}
