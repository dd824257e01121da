// This file asks a server that speaks the Prometheus HTTP API (Prometheus, Thanos Query,
// Mimir behind its path prefix, VictoriaMetrics) instant queries, with the bounds a diagnosis
// needs: a timeout per query, a cap on the bytes of an answer and on the number of series in
// it; told the replica labels of HA pairs, it asks Thanos to deduplicate them, and it can bound the resolution of the downsampled data Thanos answers from. Errors say what the server said (its errorType and error), never a credential; the
// server's warnings are passed on, bounded and escaped, and an answer some stores did not
// contribute to (Thanos' and Mimir's partial answers) is marked partial. Stats count what every query cost. Samples are floats or
// native histograms (the `histogram` and `histograms` fields of a result), both bounded alike.

package promsource

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/localfile"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
)

// Defaults of the bounds.
const (
	DefaultTimeout   = 30 * time.Second
	DefaultMaxBytes  = 64 << 20
	DefaultMaxSeries = 200000
)

// ClientConfig says how to reach the server.
type ClientConfig struct {
	// URL is the API's base: the part before /api/v1 (e.g. http://prometheus:9090, or
	// https://mimir.example/prometheus).
	URL string
	// Token is sent as a bearer token; never printed.
	Token string
	// User and Password are sent as basic auth (when User is set); the password is never
	// printed.
	User, Password string
	// Headers are sent with every query (e.g. X-Scope-OrgID for a Mimir tenant).
	Headers map[string]string
	// CAFile verifies the server's certificate; Insecure skips the verification.
	CAFile   string
	Insecure bool
	// Timeout bounds each query; MaxBytes the size of an answer; MaxSeries its series.
	Timeout   time.Duration
	MaxBytes  int64
	MaxSeries int
	// Transport, when set, carries the queries instead of one built from CAFile and Insecure:
	// the kubeconfig's, for a server reached through the API server's service proxy.
	Transport http.RoundTripper
	// Name, when set, is how the server is named in messages instead of its URL.
	Name string
	// GET sends the queries in the URL rather than as a POSTed form: through the API server's
	// service proxy a POST needs the verb create on services/proxy, a GET only get.
	GET bool
	// ReplicaLabels are the labels that tell the replicas of an HA pair apart (their readers
	// keep one replica's series, see ReplicaLabels). With AskDedup every query also asks the
	// server to deduplicate over them: dedup=true and replicaLabels[], which Thanos Query
	// reads and Prometheus and VictoriaMetrics ignore.
	ReplicaLabels []string
	AskDedup      bool
	// NoPartial asks the server to fail rather than answer without some of its stores:
	// partial_response=false, which Thanos Query reads (Prometheus and VictoriaMetrics ignore
	// it). Off, a partial answer comes with its warnings (Response.Partial).
	NoPartial bool
	// MaxSourceResolution, when set, is sent with every query as max_source_resolution (0s,
	// 5m, 1h): the coarsest downsampled data Thanos Query may answer from. Prometheus and
	// VictoriaMetrics ignore it.
	MaxSourceResolution string
}

// Stats are what the queries cost.
type Stats struct {
	Queries int
	Series  int
	Bytes   int64
}

// Client queries one server.
type Client struct {
	cfg  ClientConfig
	base *url.URL
	http *http.Client

	mu    sync.Mutex
	stats Stats
}

// NewClient checks the configuration and returns its client.
func NewClient(cfg ClientConfig) (*Client, error) {
	base, err := ParseURL(cfg.URL)
	if err != nil {
		return nil, err
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = DefaultMaxBytes
	}
	if cfg.MaxSeries <= 0 {
		cfg.MaxSeries = DefaultMaxSeries
	}
	tr := cfg.Transport
	if tr == nil {
		if tr, err = transport(cfg); err != nil {
			return nil, err
		}
	}
	client := &http.Client{
		Transport: tr,
		// Credentials (the token, basic auth, the headers, or those a given transport adds)
		// never follow a redirect to plain HTTP or to another host or port.
		CheckRedirect: redact.CheckRedirect(cfg.Token != "" || cfg.User != "" || len(cfg.Headers) > 0 || cfg.Transport != nil || base.User != nil),
	}
	return &Client{cfg: cfg, base: base, http: client}, nil
}

// transport is an HTTP transport verifying the server with CAFile, or not at all with Insecure.
func transport(cfg ClientConfig) (http.RoundTripper, error) {
	tlsCfg := &tls.Config{InsecureSkipVerify: cfg.Insecure} //nolint:gosec // explicit user opt-in
	if cfg.CAFile != "" {
		pem, err := localfile.ReadSmall(cfg.CAFile)
		if err != nil {
			return nil, fmt.Errorf("cannot read --prometheus-ca-file: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--prometheus-ca-file %s holds no PEM certificate", cfg.CAFile)
		}
		tlsCfg.RootCAs = pool
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = tlsCfg
	tr.Proxy = http.ProxyFromEnvironment
	return tr, nil
}

// ParseURL checks the server's base URL: http or https, a host, no query.
func ParseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--prometheus %q: give the server's base URL, e.g. http://prometheus:9090 (Mimir: https://HOST/prometheus)", redactURL(raw))
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("--prometheus %s: the base URL takes no query or fragment", redact.URL(u))
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.Path = strings.TrimSuffix(u.Path, "/api/v1")
	return u, nil
}

// Name is the server's name in messages: its URL without credentials, unless named otherwise.
func (c *Client) Name() string {
	if c.cfg.Name != "" {
		return c.cfg.Name
	}
	return c.base.Redacted()
}

// Stats returns what the queries have cost so far.
func (c *Client) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

// ReplicaLabels are the labels that tell the replicas of an HA pair apart: a reader keeps one
// replica's series of each target, where the server did not deduplicate them.
func (c *Client) ReplicaLabels() []string { return c.cfg.ReplicaLabels }

// SetMaxSourceResolution changes the max_source_resolution sent with the queries that follow
// (see Config.MaxSourceResolution): a reader that found nothing in the data of one resolution
// asks again allowing a coarser one.
func (c *Client) SetMaxSourceResolution(r string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cfg.MaxSourceResolution = r
}

// MaxSourceResolution is the max_source_resolution the queries are sent with ("" for none).
func (c *Client) MaxSourceResolution() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cfg.MaxSourceResolution
}

// MaxSeries is the series limit of one answer.
func (c *Client) MaxSeries() int { return c.cfg.MaxSeries }

// Query evaluates expr at instant at: an instant vector, one sample a series. An answer of
// another kind is an error. The answer's warnings come back with it.
func (c *Client) Query(ctx context.Context, expr string, at time.Time) (*Response, error) {
	return c.QueryResolution(ctx, expr, at, c.MaxSourceResolution())
}

// QueryResolution is Query sent with max_source_resolution res ("" for none), whatever the
// client's setting when it goes on the wire: a query sent ahead keeps the resolution it was
// asked at, though the client may change resolution before the query's goroutine runs.
func (c *Client) QueryResolution(ctx context.Context, expr string, at time.Time, res string) (*Response, error) {
	return c.do(ctx, "/api/v1/query", vector, res, url.Values{"query": {expr}, "time": {UnixSeconds(at)}})
}

// QueryMatrix evaluates the range selector expr at instant at: a range vector, the raw samples
// of the range (any number a series, none included). An answer of another kind is an error.
func (c *Client) QueryMatrix(ctx context.Context, expr string, at time.Time) (*Response, error) {
	return c.do(ctx, "/api/v1/query", matrix, c.MaxSourceResolution(), url.Values{"query": {expr}, "time": {UnixSeconds(at)}})
}

// QueryRange evaluates expr at every step from start to end (a matrix: one point per step
// where the expression has a value).
func (c *Client) QueryRange(ctx context.Context, expr string, start, end time.Time, step time.Duration) (*Response, error) {
	return c.do(ctx, "/api/v1/query_range", matrix, c.MaxSourceResolution(), url.Values{"query": {expr}, "start": {UnixSeconds(start)}, "end": {UnixSeconds(end)},
		"step": {strconv.FormatFloat(step.Seconds(), 'f', 3, 64)}})
}

// UnixSeconds is t as the API reads a time, and as PromQL's @ modifier does: seconds since
// the epoch, to the millisecond.
func UnixSeconds(t time.Time) string {
	return strconv.FormatFloat(float64(t.UnixMilli())/1000, 'f', 3, 64)
}

// do asks the API at path with form (and the client's timeout, and max_source_resolution res
// unless empty) and decodes the answer, which must be of the kind want (vector or matrix).
func (c *Client) do(ctx context.Context, path, want, res string, form url.Values) (*Response, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	form.Set("timeout", c.cfg.Timeout.String())
	if c.cfg.AskDedup && len(c.cfg.ReplicaLabels) > 0 {
		form.Set("dedup", "true")
		form["replicaLabels[]"] = c.cfg.ReplicaLabels
	}
	if c.cfg.NoPartial {
		form.Set("partial_response", "false")
	}
	if res != "" {
		form.Set("max_source_resolution", res)
	}
	u := *c.base
	u.Path += path
	var req *http.Request
	var err error
	if c.cfg.GET {
		u.RawQuery = form.Encode()
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	} else {
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, u.String(), strings.NewReader(form.Encode()))
	}
	if err != nil {
		return nil, err
	}
	if !c.cfg.GET {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	c.authorize(req)
	c.count(Stats{Queries: 1})
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, c.transportError(ctx, err)
	}
	defer func() { _ = resp.Body.Close() }()
	r, n, err := decode(resp, want, c.cfg.MaxBytes, c.cfg.MaxSeries)
	c.count(Stats{Bytes: n})
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, c.timeoutError()
		}
		return nil, fmt.Errorf("Prometheus at %s: %w", c.Name(), err)
	}
	c.count(Stats{Series: len(r.Series)})
	return r, nil
}

// authorize sets the headers every request carries: the answer wanted, the user's headers
// and the credentials.
func (c *Client) authorize(req *http.Request) {
	req.Header.Set("Accept", "application/json")
	for k, v := range c.cfg.Headers {
		req.Header.Set(k, v)
	}
	if c.cfg.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.Token)
	}
	if c.cfg.User != "" {
		req.SetBasicAuth(c.cfg.User, c.cfg.Password)
	}
}

func (c *Client) count(s Stats) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stats.Queries += s.Queries
	c.stats.Series += s.Series
	c.stats.Bytes += s.Bytes
}

func (c *Client) transportError(ctx context.Context, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return c.timeoutError()
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // the URL is named once, without credentials
	}
	return fmt.Errorf("cannot reach Prometheus at %s: %v", c.Name(), err)
}

func (c *Client) timeoutError() error {
	return fmt.Errorf("Prometheus at %s did not answer a query within %s (--timeout): narrow the query with -n or --clusters, or allow more time", c.Name(), c.cfg.Timeout)
}

// redactURL removes the credentials from a URL that could not be parsed as a base URL.
func redactURL(raw string) string { return redact.URLString(raw) }
