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

// noAtModifier answers as h does, but refuses any query with PromQL's @ modifier as a
// Prometheus before 2.33 does, and records the queries it answered.
type noAtModifier struct {
	h        http.Handler
	mu       sync.Mutex
	refused  int
	answered []string
}

func (n *noAtModifier) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	q := r.Form.Get("query")
	n.mu.Lock()
	defer n.mu.Unlock()
	if strings.Contains(q, " @ ") {
		n.refused++
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"status":"error","errorType":"bad_data","error":"@ modifier is disabled"}`))
		return
	}
	n.answered = append(n.answered, q)
	n.h.ServeHTTP(w, r)
}

// A server that refuses the @ modifier is read all the same: the reading is asked again,
// narrowed by the names of the jobs Open found, and the samples are those of any server.
func TestReadingWithoutTheAtModifier(t *testing.T) {
	end := time.Unix(1700000600, 0)
	start := end.Add(-10 * time.Minute)
	for _, prefetch := range []bool{true, false} {
		t.Run(map[bool]string{true: "prefetched", false: "after Open"}[prefetch], func(t *testing.T) {
			n := &noAtModifier{h: &fakeThanos{start: start, end: end, down: func(int) bool { return false }}}
			srv := httptest.NewServer(n)
			defer srv.Close()
			client, err := promsource.NewClient(promsource.ClientConfig{URL: srv.URL, Timeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			var logged []string
			src := promsource.New(promsource.Config{Client: client, At: end, Window: end.Sub(start), Log: func(s string) { logged = append(logged, s) }})
			ctx := context.Background()
			if prefetch {
				src.Prefetch(ctx, source.Options{})
			}
			if _, err := src.Open(ctx); err != nil {
				t.Fatal(err)
			}
			results := src.Read(ctx, source.Options{})
			if len(results) != 2 {
				t.Fatalf("%d targets read, want 2", len(results))
			}
			for _, r := range results {
				if got := adds(t, r); !slices.Equal(got, []float64{100, 160}) {
					t.Errorf("%s: adds %v at the window's ends, want [100 160]", r.ID(), got)
				}
			}
			n.mu.Lock()
			defer n.mu.Unlock()
			if n.refused != 3 {
				t.Errorf("%d queries refused, want the reading's 3, once", n.refused)
			}
			reading := 0
			for _, q := range n.answered {
				if !strings.HasPrefix(q, "count by") {
					reading++
					if !strings.Contains(q, `job=~"op"`) {
						t.Errorf("a reading query without the jobs found: %s", q)
					}
				}
			}
			if reading != 3 {
				t.Errorf("%d reading queries answered, want 3: %q", reading, n.answered)
			}
			if all := strings.Join(logged, "\n"); !strings.Contains(all, "answered 400 Bad Request: bad_data: @ modifier is disabled: the server refuses PromQL's @ modifier") {
				t.Errorf("-v does not say why the reading was asked again:\n%s", all)
			}
		})
	}
}
