// This file reaches a target's metrics endpoint in a cluster: through the API server's
// pod proxy, through a port-forward to the pod (websockets first, SPDY as fallback, like
// kubectl), or at the API server itself. Every way returns the plain HTTP response, so that the
// scraper applies one set of rules (status, gzip, size cap) whatever the path.

package scrape

import (
	"context"
	"fmt"
	"net/http"

	"k8s.io/client-go/rest"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// Transport performs a GET of a target's metrics path. The caller closes the response body,
// which also releases whatever the transport set up (a port-forward).
type Transport interface {
	Get(ctx context.Context, t target.Target, header http.Header) (*http.Response, error)
}

// Cluster holds what every cluster transport needs: the API server's REST config and an HTTP
// client that authenticates to it.
type Cluster struct {
	Config *rest.Config
	Client *http.Client
}

// NewCluster builds the shared API-server client from a REST config. Timeouts are left to the
// caller's context, so that a per-target deadline covers the whole exchange.
func NewCluster(config *rest.Config) (*Cluster, error) {
	cfg := rest.CopyConfig(config)
	cfg.Timeout = 0
	c, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, fmt.Errorf("build the API server client: %w", err)
	}
	return &Cluster{Config: cfg, Client: c}, nil
}
