package sourceflags

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"k8s.io/client-go/rest"
)

// serviceRef is NAMESPACE/[SCHEME:]NAME:PORT, the part of --prometheus svc/... after svc/.
var serviceRef = regexp.MustCompile(`^([a-z0-9]([-a-z0-9]*[a-z0-9])?)/((https?):)?([a-z0-9]([-a-z0-9]*[a-z0-9])?):([a-z0-9]([-a-z0-9]*[a-z0-9])?)$`)

// promService is a server of the Prometheus API reached through the API server's service
// proxy: --prometheus svc/NAMESPACE/NAME:PORT (the port's number or name; https:NAME:PORT for
// a service that serves TLS).
type promService struct {
	Namespace, Scheme, Name, Port string
}

// parsePromService reads the part of --prometheus after svc/.
func parsePromService(ref string) (promService, error) {
	m := serviceRef.FindStringSubmatch(ref)
	if m == nil {
		return promService{}, fmt.Errorf("--prometheus svc/%s: give svc/NAMESPACE/NAME:PORT (the port's number or name; svc/NAMESPACE/https:NAME:PORT for TLS), e.g. svc/monitoring/prometheus-k8s:9090", ref)
	}
	return promService{Namespace: m[1], Scheme: m[4], Name: m[5], Port: m[7]}, nil
}

// String is the service as the user named it.
func (s promService) String() string {
	scheme := ""
	if s.Scheme != "" {
		scheme = s.Scheme + ":"
	}
	return fmt.Sprintf("svc/%s/%s%s:%s", s.Namespace, scheme, s.Name, s.Port)
}

// proxy is the base URL of the service's API through the API server (the part before
// /api/v1), and the transport that carries the kubeconfig's credentials to the API server.
func (s promService) proxy(cfg *rest.Config) (string, http.RoundTripper, error) {
	host := cfg.Host
	if !strings.Contains(host, "://") {
		host = "https://" + host
	}
	u, err := url.Parse(host)
	if err != nil {
		return "", nil, fmt.Errorf("kubeconfig: server %q: %w", cfg.Host, err)
	}
	scheme := ""
	if s.Scheme != "" {
		scheme = s.Scheme + ":"
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + fmt.Sprintf("/api/v1/namespaces/%s/services/%s%s:%s/proxy", s.Namespace, scheme, s.Name, s.Port)
	rt, err := rest.TransportFor(cfg)
	if err != nil {
		return "", nil, fmt.Errorf("kubeconfig: %w", err)
	}
	return u.String(), rt, nil
}
