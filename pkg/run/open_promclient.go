package run

import (
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/promsource"
)

// promClient builds the client of the Prometheus server, its credentials registered with
// redact first: a server may echo what it got.
func promClient(s Spec, k Kubeconfig) (*promsource.Client, error) {
	p := s.Prometheus
	ref, isSvc := strings.CutPrefix(p.URL, "svc/")
	if !isSvc {
		if u, err := promsource.ParseURL(p.URL); err == nil {
			redact.AddURL(u) // user:password@ is sent as basic auth
		}
	}
	redact.Add(p.Token)
	if p.User != "" {
		redact.AddBasicAuth(p.User, p.Password)
	}
	for name, value := range p.Headers {
		registerHeader(name, value)
	}
	cfg := promsource.ClientConfig{URL: p.URL, Token: p.Token, User: p.User, Password: p.Password, Headers: p.Headers, CAFile: p.CAFile,
		Insecure: p.Insecure, Timeout: p.Timeout, MaxBytes: s.MaxBodyBytes, MaxSeries: p.MaxSeries, ReplicaLabels: p.ReplicaLabels, AskDedup: p.AskDedup,
		NoPartial: p.NoPartial}
	if !p.History {
		res, err := maxSourceResolution(p)
		if err != nil {
			return nil, specError{err}
		}
		cfg.MaxSourceResolution = promsource.ResolutionParam(res)
	}
	if isSvc {
		if err := throughProxy(k, ref, &cfg); err != nil {
			return nil, err
		}
	}
	client, err := promsource.NewClient(cfg)
	if err != nil {
		return nil, specError{err}
	}
	return client, nil
}

// minHeaderShown is the length under which the value of a header whose name does not say it
// is a credential (a tenant such as "dev") is not masked: it would mask that word everywhere.
const minHeaderShown = 6

// secretHeader tells headers whose values are credentials, masked wherever they could show.
var secretHeader = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)authorization|cookie|token|secret|key|password`) })

// registerHeader registers a header's value, and its base64, with redact. Every value of a
// credential-looking name is; any other from minHeaderShown characters on.
func registerHeader(name, value string) {
	if secretHeader().MatchString(name) || len(value) >= minHeaderShown {
		redact.AddHeader(value)
	}
}

// maxSourceResolution is the coarsest resolution the server may answer the window from.
func maxSourceResolution(p Prometheus) (time.Duration, error) {
	window := p.Window
	if window <= 0 {
		window = promsource.DefaultWindow
	}
	return promsource.ParseResolution(p.MaxSourceResolution, window)
}
