package scrape

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// fakeTransport answers every Get with one status, content type and body.
type fakeTransport struct {
	status      int
	contentType string
	body        string
	calls       int
}

func (f *fakeTransport) Get(context.Context, target.Target, http.Header) (*http.Response, error) {
	f.calls++
	h := http.Header{}
	h.Set("Content-Type", f.contentType)
	return &http.Response{StatusCode: f.status, Header: h, Body: io.NopCloser(strings.NewReader(f.body))}, nil
}

const unreachableStatus = `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"error trying to reach service: dial tcp 198.18.1.9:8080: connect: connection refused","code":503}`

// When the API server cannot reach the pod, a source with a fallback reads it by port-forward
// and says so; without a fallback the API server's own message is the error.
func TestClusterSourceFallsBackFromAnUnreachableProxy(t *testing.T) {
	pod := target.Target{Kind: target.KindPod, Namespace: "ops", Name: "op", Port: 8080, Via: target.ViaProxy}
	proxy := &fakeTransport{status: 503, contentType: "application/json", body: unreachableStatus}
	forward := &fakeTransport{status: 200, contentType: "text/plain; version=0.0.4", body: "workqueue_depth{name=\"q\"} 1\n"}
	src := &ClusterSource{Endpoint: pod, Transport: proxy, Fallback: forward}
	page, err := src.Fetch(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(page.Body)
	if !strings.Contains(string(b), "workqueue_depth") || forward.calls != 1 || src.Target().Via != target.ViaPortForward {
		t.Errorf("page %q, forward calls %d, via %s", b, forward.calls, src.Target().Via)
	}
	warnings := src.Notes()
	if len(warnings) != 1 || !strings.Contains(warnings[0], "using port-forward") || !strings.Contains(warnings[0], "connection refused") {
		t.Errorf("warnings: %q", warnings)
	}

	alone := &ClusterSource{Endpoint: pod, Transport: &fakeTransport{status: 503, contentType: "application/json", body: unreachableStatus}}
	if _, err := alone.Fetch(context.Background()); err == nil || !strings.Contains(err.Error(), "could not reach the pod") {
		t.Errorf("without a fallback: %v", err)
	}
}
