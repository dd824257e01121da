package collect

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/scrape"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// fallbackAnswer is a transport that always gives the same fallbackAnswer.
type fallbackAnswer struct {
	status int
	ctype  string
	body   string
}

func (a fallbackAnswer) Get(context.Context, target.Target, http.Header) (*http.Response, error) {
	h := http.Header{}
	h.Set("Content-Type", a.ctype)
	return &http.Response{StatusCode: a.status, Header: h, Body: io.NopCloser(strings.NewReader(a.body))}, nil
}

// When the API server cannot reach the pod, the source falls back to a port-forward: the
// result carries the target as it was reached in the end, and the note saying why.
func TestResultCarriesTheWayTheTargetWasReached(t *testing.T) {
	pod := target.Target{Kind: target.KindPod, Namespace: "ops", Name: "op", Port: 8080, Via: target.ViaProxy}
	src := &scrape.ClusterSource{Endpoint: pod,
		Transport: fallbackAnswer{503, "application/json", `{"kind":"Status","message":"error trying to reach service: dial tcp 198.18.1.9:8080: connect: connection refused","code":503}`},
		Fallback:  fallbackAnswer{200, "text/plain; version=0.0.4", "workqueue_depth{name=\"q\"} 1\n"}}
	r := Collect(context.Background(), []scrape.Source{src}, source.Options{Interval: 10 * time.Millisecond, Timeout: time.Second})[0]
	if r.Err != nil || len(r.Samples) != 2 {
		t.Fatalf("%d samples, %v", len(r.Samples), r.Err)
	}
	if r.Target.Via != target.ViaPortForward || r.ID() != "ops/op:8080" {
		t.Errorf("target %+v", r.Target)
	}
	if len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "using port-forward") || !strings.Contains(r.Notes[0], "connection refused") {
		t.Errorf("notes %q", r.Notes)
	}
}
