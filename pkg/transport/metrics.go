package transport

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"
)

// MetricsClient talks to a metrics endpoint directly: the local end of a port-forward, or a URL.
// It carries the endpoint's own credentials, which never go to the API server.
type MetricsClient struct {
	// Token is the bearer token for the endpoint; never printed or logged.
	Token string
	// CAFile verifies the endpoint's certificate; InsecureSkipVerify skips verification.
	CAFile             string
	InsecureSkipVerify bool
	// ServerName is the name to verify the certificate against (the endpoint is reached as
	// 127.0.0.1 through a port-forward, which no certificate names).
	ServerName string

	client *http.Client
}

// HTTPClient returns the client, building it on first use.
func (m *MetricsClient) HTTPClient() (*http.Client, error) {
	if m.client != nil {
		return m.client, nil
	}
	tlsConfig := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: m.ServerName,
		InsecureSkipVerify: m.InsecureSkipVerify} //nolint:gosec // only with --insecure-skip-tls-verify-metrics
	if m.CAFile != "" {
		pem, err := os.ReadFile(m.CAFile)
		if err != nil {
			return nil, fmt.Errorf("read the metrics CA file: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("the metrics CA file %s holds no PEM certificate", m.CAFile)
		}
		tlsConfig.RootCAs = pool
	}
	m.client = &http.Client{
		Transport: &http.Transport{
			DialContext:           (&net.Dialer{Timeout: 10 * time.Second}).DialContext,
			TLSClientConfig:       tlsConfig,
			TLSHandshakeTimeout:   10 * time.Second,
			ResponseHeaderTimeout: 0, // the caller's context bounds the exchange
			DisableCompression:    true,
			MaxIdleConnsPerHost:   2,
		},
		// Redirects are followed at most 3 times, never to drop the token on another host.
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 3 {
				return fmt.Errorf("stopped after 3 redirects")
			}
			if req.URL.Host != via[0].URL.Host {
				req.Header.Del("Authorization")
			}
			return nil
		},
	}
	return m.client, nil
}

// Get performs a GET of rawURL with header and the bearer token.
func (m *MetricsClient) Get(ctx context.Context, rawURL string, header http.Header) (*http.Response, error) {
	c, err := m.HTTPClient()
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if m.Token != "" {
		req.Header.Set("Authorization", "Bearer "+m.Token)
	}
	return c.Do(req)
}
