package promsource_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/promsource"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// heldTargets answers as h does, but holds the answer to the targets query until the three
// queries of the reading have arrived (or a few seconds passed): only a reading sent while the
// targets are looked for lets it go at once.
type heldTargets struct {
	h       http.Handler
	reading chan struct{}
	held    chan bool // whether the reading came while the targets query waited, once a run
}

func (s *heldTargets) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	if !strings.HasPrefix(r.Form.Get("query"), "count by") {
		if !strings.HasSuffix(r.Form.Get("query"), "]") {
			s.reading <- struct{}{}
		}
		s.h.ServeHTTP(w, r)
		return
	}
	came := true
	timeout := time.After(3 * time.Second)
	for range 3 {
		select {
		case <-s.reading:
		case <-timeout:
			came = false
		}
		if !came {
			break
		}
	}
	s.held <- came
	s.h.ServeHTTP(w, r)
}

// adds is the value of the workqueue_adds_total counter in each of a target's samples.
func adds(t *testing.T, r source.Result) []float64 {
	t.Helper()
	if r.Err != nil {
		t.Fatalf("%s: %v", r.ID(), r.Err)
	}
	var out []float64
	for _, s := range r.Samples {
		f := s.Families["workqueue_adds_total"]
		if f == nil || len(f.GetMetric()) != 1 {
			t.Fatalf("%s: no workqueue_adds_total in %v", r.ID(), s.Families)
		}
		out = append(out, f.GetMetric()[0].GetCounter().GetValue())
	}
	return out
}

// Told the reading to come before Open, the source sends the reading's three queries while
// the server answers the targets query, and Read takes their answers: four queries in all, as
// without it, and the same samples.
func TestPrefetchSendsTheReadingWithTheTargetsQuery(t *testing.T) {
	end := time.Unix(1700000600, 0)
	start := end.Add(-10 * time.Minute)
	for _, prefetch := range []bool{true, false} {
		name := map[bool]string{true: "prefetched", false: "after Open"}[prefetch]
		t.Run(name, func(t *testing.T) {
			f := &fakeThanos{start: start, end: end, down: func(int) bool { return false }}
			// The reading's queries may arrive before the targets query: the channel holds them.
			h := &heldTargets{h: f, reading: make(chan struct{}, 3), held: make(chan bool, 1)}
			srv := httptest.NewServer(h)
			defer srv.Close()
			client, err := promsource.NewClient(promsource.ClientConfig{URL: srv.URL, Timeout: 10 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			src := promsource.New(promsource.Config{Client: client, At: end, Window: end.Sub(start)})
			ctx := context.Background()
			if prefetch {
				src.Prefetch(ctx, source.Options{})
			}
			if _, err := src.Open(ctx); err != nil {
				t.Fatal(err)
			}
			if came := <-h.held; came != prefetch {
				t.Errorf("the reading came while the targets query waited: %v, want %v", came, prefetch)
			}
			results := src.Read(ctx, source.Options{})
			if n := client.Stats().Queries; n != 4 {
				t.Errorf("%d queries, want 4 (the targets, the families at both ends, the restarts)", n)
			}
			if len(results) != 2 {
				t.Fatalf("%d targets read, want 2", len(results))
			}
			for _, r := range results {
				if got := adds(t, r); !slices.Equal(got, []float64{100, 160}) {
					t.Errorf("%s: adds %v at the window's ends, want [100 160]", r.ID(), got)
				}
			}
		})
	}
}

// The reading sent ahead at the resolution the window chose is not taken when the targets are
// found only one level coarser: the reading is asked again at that resolution.
func TestPrefetchedReadingAskedAgainWhenCoarser(t *testing.T) {
	now := time.Unix(1700000600, 0)
	at := now.Add(-30 * 24 * time.Hour)
	window := 10 * time.Minute
	d := &downsampledThanos{f: &fakeThanos{start: at.Add(-window), end: at, down: func(int) bool { return false }}, held: []string{"5m"}}
	srv := httptest.NewServer(d)
	defer srv.Close()
	client, err := promsource.NewClient(promsource.ClientConfig{URL: srv.URL, Timeout: 5 * time.Second, MaxSourceResolution: "0s"})
	if err != nil {
		t.Fatal(err)
	}
	src := promsource.New(promsource.Config{Client: client, At: at, Window: window, Now: now, MaxSourceResolution: 0, AutoResolution: true})
	ctx := context.Background()
	src.Prefetch(ctx, source.Options{})
	inv, err := src.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(inv.Resolution, "5m") {
		t.Fatalf("resolution %q, want 5m", inv.Resolution)
	}
	results := src.Read(ctx, source.Options{})
	for _, r := range results {
		if got := adds(t, r); !slices.Equal(got, []float64{100, 160}) {
			t.Errorf("%s: adds %v at the window's ends, want [100 160]", r.ID(), got)
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	// The targets query at 0s, and the three sent ahead as far as they got before Read,
	// asking at 5m, dropped them (one not yet on the wire when it is cancelled never arrives:
	// on a busy machine, seen); the targets query again and the reading's three at 5m.
	at0, at5m := 0, 0
	for _, r := range d.asked {
		switch r {
		case "0s":
			at0++
		case "5m":
			at5m++
		}
	}
	if at0 < 1 || at0 > 4 || at5m != 4 || at0+at5m != len(d.asked) {
		t.Errorf("asked with max_source_resolution %v, want one to four at 0s and four at 5m", d.asked)
	}
}

// blockedReading answers the targets query with nothing once the three reading queries are on
// the server (so that each is on the wire when Open fails), has no other API (a Prometheus
// that lists no stores), and holds every other query until the client gives up on it,
// counting those given up.
type blockedReading struct {
	arrived  chan struct{}
	givenUp  chan struct{}
	released chan struct{}
}

func (b *blockedReading) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	if r.URL.Path != "/api/v1/query" {
		http.NotFound(w, r)
		return
	}
	if strings.HasPrefix(r.Form.Get("query"), "count by") {
		timeout := time.After(10 * time.Second)
		for range 3 {
			select {
			case <-b.arrived:
			case <-timeout:
			}
		}
		_, _ = w.Write([]byte(`{"status":"success","data":{"resultType":"vector","result":[]}}`))
		return
	}
	b.arrived <- struct{}{}
	select {
	case <-r.Context().Done():
		b.givenUp <- struct{}{}
	case <-b.released:
	}
}

// An Open that finds nothing cancels the reading sent ahead: no query is left waiting on the
// server for an answer nobody reads.
func TestPrefetchedReadingCancelledWhenOpenFails(t *testing.T) {
	end := time.Unix(1700000600, 0)
	b := &blockedReading{arrived: make(chan struct{}, 3), givenUp: make(chan struct{}, 3), released: make(chan struct{})}
	srv := httptest.NewServer(b)
	defer srv.Close()
	defer close(b.released)
	client, err := promsource.NewClient(promsource.ClientConfig{URL: srv.URL, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	src := promsource.New(promsource.Config{Client: client, At: end, Window: 10 * time.Minute})
	src.Prefetch(context.Background(), source.Options{})
	if _, err := src.Open(context.Background()); err == nil || !strings.Contains(err.Error(), "holds no controller series") {
		t.Fatalf("Open: %v, want that no series are there", err)
	}
	timeout := time.After(10 * time.Second)
	for i := range 3 {
		select {
		case <-b.givenUp:
		case <-timeout:
			t.Fatalf("%d of the 3 queries sent ahead cancelled after Open failed, want all", i)
		}
	}
}
