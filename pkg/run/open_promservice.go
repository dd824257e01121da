package run

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"k8s.io/client-go/rest"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/promsource"
)

// serviceRef is NAMESPACE/[SCHEME:]NAME:PORT, the part of --prometheus svc/... after svc/.
var serviceRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([a-z0-9]([-a-z0-9]*[a-z0-9])?)/((https?):)?([a-z0-9]([-a-z0-9]*[a-z0-9])?):([a-z0-9]([-a-z0-9]*[a-z0-9])?)$`)
})

// Service is a server of the Prometheus API reached through the API server's service proxy:
// --prometheus svc/NAMESPACE/NAME:PORT (the port's number or name; https:NAME:PORT for a
// service that serves TLS).
type Service struct {
	Namespace, Scheme, Name, Port string
}

// ParseService reads the part of --prometheus after svc/.
func ParseService(ref string) (Service, error) {
	m := serviceRef().FindStringSubmatch(ref)
	if m == nil {
		return Service{}, fmt.Errorf("--prometheus svc/%s: give svc/NAMESPACE/NAME:PORT (the port's number or name; svc/NAMESPACE/https:NAME:PORT for TLS), e.g. svc/monitoring/prometheus-k8s:9090", ref)
	}
	return Service{Namespace: m[1], Scheme: m[4], Name: m[5], Port: m[7]}, nil
}

// String is the service as the user named it.
func (s Service) String() string {
	scheme := ""
	if s.Scheme != "" {
		scheme = s.Scheme + ":"
	}
	return fmt.Sprintf("svc/%s/%s%s:%s", s.Namespace, scheme, s.Name, s.Port)
}

// throughProxy points cfg at the service ref (NAMESPACE/NAME:PORT) through the API server's
// service proxy, with the kubeconfig's transport and credentials: the API server does not
// pass the caller's Authorization on, nor is its TLS the service's.
func throughProxy(k Kubeconfig, ref string, cfg *promsource.ClientConfig) error {
	svc, err := ParseService(ref)
	if err != nil {
		return specError{err}
	}
	if k == nil {
		return specError{fmt.Errorf("--prometheus %s needs a kubeconfig", svc)}
	}
	rc, err := restConfig(k)
	if err != nil {
		return err
	}
	base, rt, err := svc.proxy(rc)
	if err != nil {
		return err
	}
	cfg.URL, cfg.Transport, cfg.Name, cfg.GET = base, rt, svc.String()+" (through the API server's service proxy)", true
	return nil
}

// proxy is the base URL of the service's API through the API server (the part before
// /api/v1), and the transport that carries the kubeconfig's credentials to the API server.
func (s Service) proxy(cfg *rest.Config) (string, http.RoundTripper, error) {
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
