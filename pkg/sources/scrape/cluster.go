package scrape

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// ClusterSource reads a target in a cluster through a transport (the API server's proxy, a
// port-forward, or the API server itself). When the proxy was picked automatically and the
// API server cannot reach the pod, it falls back to Fallback (a port-forward) and says so in
// its Notes. One ClusterSource is read by one goroutine at a time.
type ClusterSource struct {
	Endpoint  target.Target
	Transport Transport
	Fallback  Transport
	// WithToken says whether a metrics token is configured (it changes the advice on 401).
	WithToken bool
	// Token is the metrics token the transport sends, if any: it is only used to take it out of
	// errors (an endpoint may echo it back in an error page).
	Token        string
	MaxBodyBytes int64
	notes        []string
}

var _ Noted = (*ClusterSource)(nil)

// Name is the target's ID.
func (s *ClusterSource) Name() string { return s.Endpoint.ID() }

// Target is the target, with the way it is reached now.
func (s *ClusterSource) Target() target.Target { return s.Endpoint }

// Notes says when the source fell back to a port-forward, and why.
func (s *ClusterSource) Notes() []string { return s.notes }

// Fetch requests the page.
func (s *ClusterSource) Fetch(ctx context.Context) (*Page, error) {
	page, err := s.fetchWithFallback(ctx)
	return page, redactSecret(err, s.Token)
}

func (s *ClusterSource) fetchWithFallback(ctx context.Context) (*Page, error) {
	page, err := s.fetch(ctx, s.Transport, s.Endpoint.Via)
	var unreachable *unreachableError
	if err != nil && s.Fallback != nil && errors.As(err, &unreachable) {
		s.notes = append(s.notes, fmt.Sprintf("%s: the API server's proxy could not reach the pod (%s); using port-forward", s.Name(), unreachable.msg))
		s.Transport, s.Fallback = s.Fallback, nil
		s.Endpoint.Via = target.ViaPortForward
		s.Endpoint.ViaReason = "the API server's proxy could not reach the pod"
		return s.fetch(ctx, s.Transport, s.Endpoint.Via)
	}
	return page, err
}

func (s *ClusterSource) fetch(ctx context.Context, tr Transport, via target.Via) (*Page, error) {
	h := http.Header{}
	h.Set("Accept", AcceptHeader)
	h.Set("Accept-Encoding", "gzip")
	h.Set("User-Agent", "kubectl-ctrldiag")
	start := time.Now()
	resp, err := tr.Get(ctx, s.Endpoint, h)
	if err != nil {
		return nil, fmt.Errorf("via %s: %w", via, explainRead(ctx, err))
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		snippet, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return nil, s.explain(resp, via, snippet)
	}
	ct := resp.Header.Get("Content-Type")
	body, err := capped(resp.Body, s.MaxBodyBytes)
	if err != nil {
		return nil, err
	}
	if notMetricsType(ct) {
		return nil, fmt.Errorf("via %s: %w", via, notMetrics(ct, body))
	}
	explain := func(err error) error {
		return redactSecret(fmt.Errorf("via %s: %w", via, explainRead(ctx, err)), s.Token)
	}
	return &Page{Body: &explainingBody{ReadCloser: body, explain: explain, contentType: ct}, Time: start, ContentType: ct}, nil
}

// explain turns a non-200 answer into advice. Through the proxy an answer may come from the
// API server itself (a Status object: RBAC, pod not found, pod unreachable) or from the
// endpoint, which the API server called without credentials.
func (s *ClusterSource) explain(resp *http.Response, via target.Via, body []byte) error {
	if st, ok := apiStatus(resp, body); ok {
		switch {
		case resp.StatusCode == http.StatusForbidden:
			return fmt.Errorf("via %s: the API server refused: %s", via, st)
		case via == target.ViaProxy && (resp.StatusCode == http.StatusServiceUnavailable || resp.StatusCode == http.StatusBadGateway ||
			resp.StatusCode == http.StatusInternalServerError):
			return &unreachableError{msg: st}
		}
		return fmt.Errorf("via %s: %d from the API server: %s", via, resp.StatusCode, st)
	}
	if via == target.ViaProxy && (resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden) {
		return fmt.Errorf("via proxy: %d %s from the endpoint: it demands credentials, and the API server's proxy never forwards them; "+
			"rerun with --token-from-sa NAMESPACE/SERVICEACCOUNT (a service account bound to a ClusterRole that may get /metrics) "+
			"or --token, which scrape through a port-forward", resp.StatusCode, http.StatusText(resp.StatusCode))
	}
	return fmt.Errorf("via %s: %w", via, explainStatus(resp, s.WithToken && via != target.ViaProxy, string(body)))
}

// apiStatus recognises a Kubernetes Status object and returns its message.
func apiStatus(resp *http.Response, body []byte) (string, bool) {
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		return "", false
	}
	var st struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &st) != nil || st.Kind != "Status" {
		return "", false
	}
	return redact.ExcerptString(st.Message), true
}

// unreachableError: the API server could not connect to the pod.
type unreachableError struct{ msg string }

func (e *unreachableError) Error() string {
	msg := "via proxy: the API server could not reach the pod: " + e.msg
	if strings.Contains(e.msg, "does not look like a TLS handshake") {
		msg += ": the endpoint speaks plain HTTP, not HTTPS: use --scheme http"
	}
	return msg
}
