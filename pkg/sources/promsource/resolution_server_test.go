package promsource_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/promsource"
)

// The loss of downsampled data is said only where it may have happened: a Thanos Query (it
// lists its stores) or a server that could not be asked; Prometheus, Mimir and
// VictoriaMetrics (which refuse /api/v1/stores as unknown) answered raw, and the run says so
// without a warning. The text outputs' source resolution line follows the warning.
func TestResolutionSaidOnlyWhereDownsampled(t *testing.T) {
	end := time.Unix(1700000600, 0)
	for _, tc := range []struct {
		name   string
		stores func(w http.ResponseWriter)
		words  string
		warned bool
	}{
		{"thanos query", func(w http.ResponseWriter) { _, _ = w.Write([]byte(`{"status":"success","data":{"sidecar":[]}}`)) },
			"up to 5m: downsampled data may have been used", true},
		{"prometheus (404)", func(w http.ResponseWriter) { http.NotFound(w, nil) }, "raw", false},
		{"victoriametrics (400)", func(w http.ResponseWriter) { http.Error(w, "unsupported path requested", http.StatusBadRequest) }, "raw", false},
		{"refused (403): unknown", func(w http.ResponseWriter) { http.Error(w, "forbidden", http.StatusForbidden) },
			"up to 5m: downsampled data may have been used", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeThanos{start: end.Add(-time.Hour), end: end, down: func(int) bool { return false }}
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/api/v1/stores" {
					tc.stores(w)
					return
				}
				f.ServeHTTP(w, r)
			}))
			defer srv.Close()
			client, err := promsource.NewClient(promsource.ClientConfig{URL: srv.URL, Timeout: 5 * time.Second, MaxSourceResolution: "5m"})
			if err != nil {
				t.Fatal(err)
			}
			inv, err := promsource.New(promsource.Config{Client: client, At: end, Window: time.Hour, MaxSourceResolution: promsource.FiveMinutes}).Open(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			warned := strings.Contains(strings.Join(inv.Warnings, "\n"), "judged on data of resolution")
			if inv.Resolution != tc.words || warned != tc.warned {
				t.Errorf("resolution %q, warned %v; want %q, %v\n%s", inv.Resolution, warned, tc.words, tc.warned, strings.Join(inv.Warnings, "\n"))
			}
			if noted := strings.HasPrefix(inv.ResolutionNote, "up to 5m (Thanos Query may answer from downsampled data"); noted != tc.warned ||
				!noted && inv.ResolutionNote != "" {
				t.Errorf("the text outputs' source resolution is %q, want it said %v (as the warning)", inv.ResolutionNote, tc.warned)
			}
		})
	}
}

// A resolution forced coarser than the window allows (fewer than five of its points in the
// window) says how far off the rates may be, the aggregate at each end spanning more than a
// fifth of the window; a window long enough for it, or raw, says nothing of it.
func TestShortWindowForCoarseDataSaysItsLoss(t *testing.T) {
	end := time.Unix(1700000600, 0)
	for _, tc := range []struct {
		window time.Duration
		res    time.Duration
		loss   string
	}{
		{20 * time.Minute, promsource.OneHour, "the window (20m) spans fewer than 5 points of 1h data: " +
			"where Thanos Query answers from it, each end of the window is read from an aggregate over 1h, " +
			"so rates may be off by up to 300 % (1h of counts over 20m); a --window of 5h or more is judged on it with less loss"},
		{4 * time.Hour, promsource.OneHour, "rates may be off by up to 25 % (1h of counts over 4h)"},
		{10 * time.Minute, promsource.FiveMinutes, "rates may be off by up to 50 % (5m of counts over 10m)"},
		{5 * time.Hour, promsource.OneHour, ""},
		{25 * time.Minute, promsource.FiveMinutes, ""},
		{time.Minute, promsource.Raw, ""},
	} {
		f := &fakeThanos{start: end.Add(-tc.window), end: end, down: func(int) bool { return false }}
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/api/v1/stores" {
				_, _ = w.Write([]byte(`{"status":"success","data":{"store":[]}}`))
				return
			}
			f.ServeHTTP(w, r)
		}))
		client, err := promsource.NewClient(promsource.ClientConfig{URL: srv.URL, Timeout: 5 * time.Second, MaxSourceResolution: promsource.ResolutionParam(tc.res)})
		if err != nil {
			t.Fatal(err)
		}
		inv, err := promsource.New(promsource.Config{Client: client, At: end, Window: tc.window, MaxSourceResolution: tc.res}).Open(context.Background())
		srv.Close()
		if err != nil {
			t.Fatal(err)
		}
		warned := strings.Join(inv.Warnings, "\n")
		if said := strings.Contains(warned, "spans fewer than"); said != (tc.loss != "") || !strings.Contains(warned, tc.loss) {
			t.Errorf("--window %s at %s: want the loss %q said (%v):\n%s", tc.window, promsource.ResolutionParam(tc.res), tc.loss, tc.loss != "", warned)
		}
	}
}
