package scrape

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// Proxy reaches pods through the API server's proxy subresource:
// /api/v1/namespaces/NS/pods/[https:]NAME:PORT/proxy/PATH. The API server authenticates the
// caller, then connects to the pod without credentials (and without verifying its TLS
// certificate), so endpoints that demand a token answer 401 or 403 through it.
type Proxy struct {
	Cluster *Cluster
}

// ProxyPath is the API path for a pod target. The port is always a number: a port name in the
// pod proxy path makes the API server fail the request with an INTERNAL_ERROR stream error.
func ProxyPath(t target.Target) string {
	scheme := ""
	if t.HTTPS() {
		scheme = "https:"
	}
	p := "/" + strings.TrimPrefix(t.Path, "/")
	return fmt.Sprintf("/api/v1/namespaces/%s/pods/%s%s:%d/proxy%s",
		url.PathEscape(t.Namespace), scheme, url.PathEscape(t.Name), t.Port, p)
}

// Get fetches the target's page through the proxy.
func (p *Proxy) Get(ctx context.Context, t target.Target, header http.Header) (*http.Response, error) {
	if t.Kind != target.KindPod {
		return nil, fmt.Errorf("the pod proxy cannot reach a %s target", t.Kind)
	}
	return p.Cluster.get(ctx, ProxyPath(t), header)
}

// APIServer reaches the API server's own endpoint (t.Path, normally /metrics) with the
// kubeconfig's credentials.
type APIServer struct {
	Cluster *Cluster
}

// Get fetches the API server's page.
func (a *APIServer) Get(ctx context.Context, t target.Target, header http.Header) (*http.Response, error) {
	return a.Cluster.get(ctx, "/"+strings.TrimPrefix(t.Path, "/"), header)
}

// get performs a GET of an API path on the API server.
func (c *Cluster) get(ctx context.Context, apiPath string, header http.Header) (*http.Response, error) {
	base, err := url.Parse(c.Config.Host)
	if err != nil || base.Host == "" {
		// rest.Config.Host may be a bare host:port.
		base, err = url.Parse("https://" + c.Config.Host)
		if err != nil {
			return nil, fmt.Errorf("API server address %q: %w", c.Config.Host, err)
		}
	}
	u := *base
	// A query ("?debug=2") stays a query, not part of the escaped path.
	apiPath, u.RawQuery, _ = strings.Cut(apiPath, "?")
	u.Path = strings.TrimSuffix(base.Path, "/") + apiPath
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	for k, v := range header {
		if !strings.EqualFold(k, "Authorization") { // the API server's credentials come from the kubeconfig
			req.Header[k] = v
		}
	}
	return c.Client.Do(req)
}
