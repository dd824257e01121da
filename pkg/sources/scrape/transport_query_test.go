package scrape

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"k8s.io/client-go/rest"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// A path's query reaches the endpoint as a query, through the proxy and at the API server,
// not escaped into the path.
func TestQueryStaysAQuery(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.URL.Path+" ? "+r.URL.RawQuery)
	}))
	defer srv.Close()
	c, err := NewCluster(&rest.Config{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	pod := target.Target{Kind: target.KindPod, Namespace: "ns", Name: "p", Port: 8082, Path: "/debug/pprof/goroutine?debug=2"}
	for _, tr := range []Transport{&Proxy{Cluster: c}, &APIServer{Cluster: c}} {
		resp, err := tr.Get(context.Background(), pod, http.Header{})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	want := []string{"/api/v1/namespaces/ns/pods/p:8082/proxy/debug/pprof/goroutine ? debug=2", "/debug/pprof/goroutine ? debug=2"}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("asked %q, want %q", got, want)
	}
}
