package scrape

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/localfile"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// AcceptHeader asks for the Prometheus text format 0.0.4, which every exporter serves.
const AcceptHeader = "text/plain;version=0.0.4;q=1,*/*;q=0.1"

// HTTPConfig is how URL sources connect.
type HTTPConfig struct {
	// Token is a bearer token for the metrics endpoint. It is sent, never printed.
	Token string
	// CAFile verifies the endpoint's certificate; InsecureSkipVerify skips verification.
	CAFile             string
	InsecureSkipVerify bool
	MaxBodyBytes       int64
}

// NewHTTPClient returns the client URL sources share.
func NewHTTPClient(cfg HTTPConfig) (*http.Client, error) {
	tlsCfg := &tls.Config{InsecureSkipVerify: cfg.InsecureSkipVerify} //nolint:gosec // explicit user opt-in
	if cfg.CAFile != "" {
		pem, err := localfile.ReadSmall(cfg.CAFile)
		if err != nil {
			return nil, fmt.Errorf("cannot read --metrics-ca-file: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--metrics-ca-file %s holds no PEM certificate", cfg.CAFile)
		}
		tlsCfg.RootCAs = pool
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = tlsCfg
	tr.DisableCompression = true // gzip is asked for and decoded by capped, under the size cap
	return &http.Client{
		Transport: tr,
		// Credentials never follow a redirect to plain HTTP or to another host or port.
		CheckRedirect: redact.CheckRedirect(cfg.Token != ""),
	}, nil
}

// URLSource reads a metrics endpoint over HTTP or HTTPS.
type URLSource struct {
	URL    *url.URL
	Client *http.Client
	Config HTTPConfig
}

// NewURLSource checks raw and returns its source.
func NewURLSource(raw string, client *http.Client, cfg HTTPConfig) (*URLSource, error) {
	u, err := parseURL(raw)
	if err != nil {
		return nil, err
	}
	redact.AddURL(u) // user:password@ is sent as basic auth, and a token may be in the query
	return &URLSource{URL: u, Client: client, Config: cfg}, nil
}

// Name is the URL without its credentials (redact.URL).
func (s *URLSource) Name() string { return redact.URL(s.URL) }

// Target is the URL as a target.
func (s *URLSource) Target() target.Target {
	return target.Target{Kind: target.KindURL, Name: s.Name(), Via: target.ViaDirect}
}

// Fetch requests the page. The body is capped and gunzipped; ctx bounds the whole read.
func (s *URLSource) Fetch(ctx context.Context) (*Page, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.URL.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", AcceptHeader)
	req.Header.Set("Accept-Encoding", "gzip")
	req.Header.Set("User-Agent", "kubectl-ctrldiag")
	if s.Config.Token != "" {
		req.Header.Set("Authorization", "Bearer "+s.Config.Token)
	}
	start := time.Now()
	resp, err := s.Client.Do(req)
	if err != nil {
		return nil, s.redact(explainRead(ctx, err))
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		snippet, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return nil, s.redact(explainStatus(resp, s.Config.Token != "", string(snippet)))
	}
	ct := resp.Header.Get("Content-Type")
	body, err := capped(resp.Body, s.Config.MaxBodyBytes)
	if err != nil {
		return nil, err
	}
	if notMetricsType(ct) {
		return nil, s.redact(notMetrics(ct, body))
	}
	return &Page{Body: &explainingBody{ReadCloser: body, explain: func(err error) error { return s.redact(explainRead(ctx, err)) },
		contentType: ct}, Time: start, ContentType: ct}, nil
}

// notMetricsType reports whether a Content-Type is surely not a metrics page: HTML or JSON.
// Other types are read, and the parser tells text exposition from anything else.
func notMetricsType(ct string) bool {
	return strings.HasPrefix(ct, "text/html") || strings.HasPrefix(ct, "application/json")
}

// redact removes the credentials from an error message, whatever produced it.
func (s *URLSource) redact(err error) error { return redactSecret(err, s.Config.Token) }

// redactSecret masks secret and every credential redact knows in err's message: an endpoint
// may echo the Authorization header it received into its error page, and errors are printed.
func redactSecret(err error, secret string) error {
	if err == nil {
		return err
	}
	msg := err.Error()
	if secret != "" {
		msg = strings.ReplaceAll(msg, secret, redact.Mask)
	}
	if msg = redact.String(msg); msg == err.Error() {
		return err
	}
	return errors.New(msg)
}
