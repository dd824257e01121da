package sourceflags

import (
	"strings"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/exitcode"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/globals"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/localfile"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/promapi"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
)

// promClient validates the flags that say how to reach --prometheus and returns its client,
// with the timeout of one query (--timeout when given, else the client's default).
func (f *Flags) promClient(g *globals.Flags) (*promapi.Client, time.Duration, error) {
	p := f.Prom
	switch {
	case p.BearerToken != "" && p.TokenFile != "":
		return nil, 0, exitcode.UsageError("--prometheus-bearer-token and --prometheus-token-file are exclusive: give one")
	case p.MaxSeries <= 0:
		return nil, 0, exitcode.UsageError("--prometheus-max-series must be positive, got %d", p.MaxSeries)
	case p.ClusterLabel == "":
		return nil, 0, exitcode.UsageError("--cluster-label must name a label")
	case f.Timeout <= 0:
		return nil, 0, exitcode.UsageError("--timeout must be positive, got %s", f.Timeout)
	}
	svc, isSvc := strings.CutPrefix(p.URL, "svc/")
	if !isSvc {
		u, err := promapi.ParseURL(p.URL)
		if err != nil {
			return nil, 0, exitcode.UsageError("%v", err)
		}
		redact.AddURL(u) // user:password@ is sent as basic auth
	}
	token := p.BearerToken
	if p.TokenFile != "" {
		b, err := localfile.ReadSmall(p.TokenFile)
		if err != nil {
			return nil, 0, exitcode.UsageError("cannot read --prometheus-token-file: %v", err)
		}
		if token = strings.TrimSpace(string(b)); token == "" {
			return nil, 0, exitcode.UsageError("--prometheus-token-file %s is empty", p.TokenFile)
		}
	}
	redact.Add(token)
	user, password, err := p.basicAuth()
	if err != nil {
		return nil, 0, err
	}
	if token != "" && user != "" {
		return nil, 0, exitcode.UsageError("--prometheus-bearer-token or --prometheus-token-file, and basic auth (--prometheus-basic-auth-file, --prometheus-user): give one")
	}
	headers := map[string]string{}
	for i, h := range p.Headers {
		name, value, ok := strings.Cut(h, "=")
		if !ok || !headerName.MatchString(name) {
			// Not quoted: what was meant as the value may be anywhere in it.
			return nil, 0, exitcode.UsageError("--prometheus-header number %d is not NAME=VALUE (a header name, =, its value; e.g. X-Scope-OrgID=TENANT); "+
				"its text is not shown, as it may hold a credential", i+1)
		}
		registerHeader(name, value)
		headers[name] = value
	}
	timeout := f.Timeout
	if f.flags == nil || f.flags.Lookup("timeout") == nil || !f.flags.Lookup("timeout").Changed {
		timeout = promapi.DefaultTimeout
	}
	pcfg := promapi.Config{URL: p.URL, Token: token, User: user, Password: password, Headers: headers, CAFile: p.CAFile,
		Insecure: p.Insecure, Timeout: timeout, MaxBytes: f.MaxBodyBytes, MaxSeries: p.MaxSeries}
	if isSvc {
		if err := p.throughProxy(g, svc, &pcfg); err != nil {
			return nil, 0, err
		}
	}
	client, err := promapi.New(pcfg)
	if err != nil {
		return nil, 0, exitcode.UsageError("%v", err)
	}
	return client, timeout, nil
}

// minHeaderShown is the length under which the value of a header whose name does not say it
// is a credential (a tenant such as "dev") is not masked: it would mask that word everywhere.
const minHeaderShown = 6

// registerHeader registers a header's value, and its base64, with redact: a server may echo
// the headers it got. Every value of a credential-looking name is; any other from
// minHeaderShown characters on.
func registerHeader(name, value string) {
	if secretHeader.MatchString(name) || len(value) >= minHeaderShown {
		redact.AddHeader(value)
	}
}
