package cmd

import (
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/localfile"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/run"
)

// promServer checks the flags that say how to reach --prometheus and says the server, with
// the timeout of one query (--timeout when given, else the client's default).
func (f *SourceFlags) promServer(g *cli.GlobalFlags) (run.Prometheus, error) {
	p := f.Prom
	switch {
	case p.BearerToken != "" && p.TokenFile != "":
		return run.Prometheus{}, cli.UsageError("--prometheus-bearer-token and --prometheus-token-file are exclusive: give one")
	case p.MaxSeries <= 0:
		return run.Prometheus{}, cli.UsageError("--prometheus-max-series must be positive, got %d", p.MaxSeries)
	case p.ClusterLabel == "":
		return run.Prometheus{}, cli.UsageError("--cluster-label must name a label")
	case f.Timeout <= 0:
		return run.Prometheus{}, cli.UsageError("--timeout must be positive, got %s", f.Timeout)
	}
	asked := f.flags != nil && f.flags.Lookup("replica-label") != nil && f.flags.Lookup("replica-label").Changed
	// Only --partial-response=false given asks the server to fail (flags built without it accept).
	denyPartial := f.flags != nil && f.flags.Lookup("partial-response") != nil && f.flags.Lookup("partial-response").Changed && !p.PartialResponse
	replicas, err := p.replicaLabels()
	if err != nil {
		return run.Prometheus{}, err
	}
	svc, isSvc := strings.CutPrefix(p.URL, "svc/")
	if !isSvc {
		if err := run.CheckPrometheusURL(p.URL); err != nil {
			return run.Prometheus{}, cli.UsageError("%v", err)
		}
	}
	token := p.BearerToken
	if p.TokenFile != "" {
		b, err := localfile.ReadSmall(p.TokenFile)
		if err != nil {
			return run.Prometheus{}, cli.UsageError("cannot read --prometheus-token-file: %v", err)
		}
		if token = strings.TrimSpace(string(b)); token == "" {
			return run.Prometheus{}, cli.UsageError("--prometheus-token-file %s is empty", p.TokenFile)
		}
	}
	user, password, err := p.basicAuth()
	if err != nil {
		return run.Prometheus{}, err
	}
	if token != "" && user != "" {
		return run.Prometheus{}, cli.UsageError("--prometheus-bearer-token or --prometheus-token-file, and basic auth (--prometheus-basic-auth-file, --prometheus-user): give one")
	}
	headers := map[string]string{}
	for i, h := range p.Headers {
		name, value, ok := strings.Cut(h, "=")
		if !ok || !headerName().MatchString(name) {
			// Not quoted: what was meant as the value may be anywhere in it.
			return run.Prometheus{}, cli.UsageError("--prometheus-header number %d is not NAME=VALUE (a header name, =, its value; e.g. X-Scope-OrgID=TENANT); "+
				"its text is not shown, as it may hold a credential", i+1)
		}
		headers[name] = value
	}
	if p.Tenant != "" {
		if strings.TrimSpace(p.Tenant) != p.Tenant || strings.ContainsFunc(p.Tenant, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			return run.Prometheus{}, cli.UsageError("--tenant %q: a tenant ID has no blanks around it and no control characters", p.Tenant)
		}
		for _, name := range TenantHeaders {
			for set := range headers {
				if strings.EqualFold(set, name) {
					return run.Prometheus{}, cli.UsageError("--tenant sets the header %s, which --prometheus-header sets too: give one", name)
				}
			}
			headers[name] = p.Tenant
		}
	}
	timeout := f.Timeout
	if f.flags == nil || f.flags.Lookup("timeout") == nil || !f.flags.Lookup("timeout").Changed {
		timeout = run.DefaultQueryTimeout
	}
	server := run.Prometheus{URL: p.URL, Token: token, User: user, Password: password, Headers: headers, CAFile: p.CAFile,
		Insecure: p.Insecure, Timeout: timeout, MaxSeries: p.MaxSeries, ClusterLabel: p.ClusterLabel, Clusters: p.Clusters,
		ReplicaLabels: replicas, AskDedup: asked && len(replicas) > 0, NoPartial: denyPartial, MaxSourceResolution: p.MaxSourceResolution}
	if isSvc {
		if err := checkService(g, svc, server); err != nil {
			return run.Prometheus{}, err
		}
	}
	return server, nil
}
