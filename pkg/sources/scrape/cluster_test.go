package scrape

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// echoTransport answers like an endpoint that echoes the credentials it was sent.
type echoTransport struct{ token string }

func (e echoTransport) Get(context.Context, target.Target, http.Header) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusInternalServerError, Header: http.Header{},
		Body: io.NopCloser(strings.NewReader("failed; you sent Bearer " + e.token))}, nil
}

// An endpoint behind a port-forward that echoes the token in its error page does not get it
// printed.
func TestClusterSourceRedactsToken(t *testing.T) {
	src := &ClusterSource{Endpoint: target.Target{Namespace: "ns", Name: "p", Port: 8443, Via: target.ViaPortForward},
		Transport: echoTransport{token: secret}, WithToken: true, Token: secret}
	_, err := src.Fetch(context.Background())
	if err == nil || strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), "[REDACTED]") {
		t.Fatalf("want the 500 with the token redacted, got %v", err)
	}
}
