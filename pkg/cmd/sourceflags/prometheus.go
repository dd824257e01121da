package sourceflags

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"k8s.io/klog/v2"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/exitcode"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/globals"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/stderrline"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/collect"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/engine"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/localfile"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/promapi"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/promsource"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// PromFlags are the flags of the Prometheus source: a server that speaks the Prometheus HTTP
// API answers instead of the targets themselves.
type PromFlags struct {
	URL          string
	TokenFile    string
	BearerToken  string
	Headers      []string
	CAFile       string
	Insecure     bool
	BasicAuth    string
	User         string
	MaxSeries    int
	Window       time.Duration
	At           string
	Clusters     []string
	ClusterLabel string
}

// addPromFlags registers them; sampling adds --window.
func (p *PromFlags) addPromFlags(fs *pflag.FlagSet, sampling bool) {
	fs.StringVar(&p.URL, "prometheus", "", "Read the series of a server that speaks the Prometheus HTTP API (Prometheus, Thanos Query, Mimir with its path prefix, VictoriaMetrics) instead of scraping: its base URL, e.g. http://prometheus:9090, or svc/NAMESPACE/NAME:PORT through the API server's service proxy")
	fs.StringVar(&p.BasicAuth, "prometheus-basic-auth-file", "", "File holding USER:PASSWORD, sent to --prometheus as basic auth (never printed)")
	fs.StringVar(&p.User, "prometheus-user", "", "User sent to --prometheus as basic auth, the password read from the environment variable "+PasswordEnv)
	fs.StringVar(&p.TokenFile, "prometheus-token-file", "", "File holding a bearer token for --prometheus")
	fs.StringVar(&p.BearerToken, "prometheus-bearer-token", "", "Bearer token for --prometheus (never printed; --prometheus-token-file keeps it out of the shell history)")
	fs.StringArrayVar(&p.Headers, "prometheus-header", nil, "Header sent to --prometheus, as NAME=VALUE (repeatable; e.g. X-Scope-OrgID=TENANT for Mimir)")
	fs.StringVar(&p.CAFile, "prometheus-ca-file", "", "CA certificate file to verify an https --prometheus")
	fs.BoolVar(&p.Insecure, "prometheus-insecure-skip-tls-verify", false, "Do not verify the certificate of an https --prometheus")
	fs.IntVar(&p.MaxSeries, "prometheus-max-series", promapi.DefaultMaxSeries, "Most series one answer of --prometheus may hold; a larger answer is an error")
	fs.StringVar(&p.At, "at", "", "With --prometheus: the end of the window, RFC 3339 (2026-03-02T03:00:00Z) or relative to now (-2h) (default now)")
	fs.StringSliceVar(&p.Clusters, "clusters", nil, "With --prometheus: read only these clusters (values of --cluster-label; default every cluster in the store)")
	fs.StringVar(&p.ClusterLabel, "cluster-label", "cluster", "With --prometheus: the label that tells clusters apart")
	if sampling {
		fs.DurationVar(&p.Window, "window", promsource.DefaultWindow, "With --prometheus: the window between the two samples rebuilt from the series")
	}
}

// PasswordEnv is the environment variable holding the basic auth password of --prometheus-user.
const PasswordEnv = "CTRLDIAG_PROMETHEUS_PASSWORD"

var headerName = regexp.MustCompile(`^[A-Za-z0-9!#$%&'*+.^_|~-]+$`)

// secretHeader tells headers whose values are credentials, masked wherever they could show.
var secretHeader = regexp.MustCompile(`(?i)authorization|cookie|token|secret|key|password`)

// promChanged lists the Prometheus-only flags set without --prometheus.
func (f *Flags) promOnlyFlagsSet() []string {
	var set []string
	if f.flags == nil {
		return nil
	}
	for _, n := range []string{"prometheus-basic-auth-file", "prometheus-user", "prometheus-token-file", "prometheus-bearer-token", "prometheus-header", "prometheus-ca-file",
		"prometheus-insecure-skip-tls-verify", "prometheus-max-series", "window", "at", "clusters", "cluster-label"} {
		if fl := f.flags.Lookup(n); fl != nil && fl.Changed {
			set = append(set, "--"+n)
		}
	}
	return set
}

// resolvePrometheus validates the Prometheus flags and builds its source.
func (f *Flags) resolvePrometheus(g *globals.Flags, args []string, now time.Time) (Resolved, error) {
	p := f.Prom
	switch {
	case len(args) > 0 || len(f.URLs) > 0 || len(f.Files) > 0:
		return Resolved{}, exitcode.UsageError("--prometheus reads series instead of targets: give no TARGET, --url or --from-file with it")
	case f.flags != nil && f.flags.Lookup("interval") != nil && f.flags.Lookup("interval").Changed:
		return Resolved{}, exitcode.UsageError("--prometheus: the samples are the window's ends: give --window, not --interval")
	case f.Selector != "":
		return Resolved{}, exitcode.UsageError("--prometheus: -l selects pods in a cluster; narrow the series with -n or --clusters")
	case f.Token != "" || f.TokenFile != "" || f.TokenFromSA != "" || f.UseKubeconfigToken:
		return Resolved{}, exitcode.UsageError("--token, --token-file, --token-from-sa and --use-kubeconfig-token are the metrics endpoints' credentials: the server's are --prometheus-bearer-token or --prometheus-token-file")
	case f.flags != nil && f.flags.Lookup("window") != nil && p.Window <= 0:
		return Resolved{}, exitcode.UsageError("--window must be positive, got %s", p.Window)
	case f.Deadline <= 0:
		return Resolved{}, exitcode.UsageError("--deadline must be positive, got %s", f.Deadline)
	}
	at, err := ParseAt(p.At, now)
	if err != nil {
		return Resolved{}, exitcode.UsageError("%v", err)
	}
	client, timeout, err := f.promClient(g)
	if err != nil {
		return Resolved{}, err
	}
	window := p.Window
	if window <= 0 {
		window = promsource.DefaultWindow
	}
	ns := ""
	if !g.AllNamespaces && g.ConfigFlags != nil && g.ConfigFlags.Namespace != nil {
		ns = *g.ConfigFlags.Namespace
	}
	src := promsource.New(promsource.Config{Client: client, At: at, Window: window, ClusterLabel: p.ClusterLabel,
		Clusters: p.Clusters, Namespace: ns, Deadline: f.Deadline})
	scope := fmt.Sprintf("Prometheus %s", client.Name())
	if ns != "" {
		scope += ", namespace " + ns
	}
	if len(p.Clusters) > 0 {
		scope += ", clusters " + strings.Join(p.Clusters, ",")
	}
	var s source.Source = src
	if f.ClusterWithPrometheus {
		s = f.withCluster(g, src, at, now, window)
	}
	return Resolved{
		Source: s,
		Scope:  engine.Scope{Namespace: ns, Label: scope},
		Read:   source.Options{Timeout: timeout, Concurrency: f.Concurrency, Deadline: f.Deadline},
		at:     at,
		prom:   src,
	}, nil
}

// withCluster adds the kubeconfig's cluster to the series when it is the one read and the
// window ends now or less than one window ago: one cluster (or no cluster label) in the
// series, and the pods they name found there by namespace and name.
func (f *Flags) withCluster(g *globals.Flags, src source.Source, at, now time.Time, window time.Duration) source.Source {
	kube := func() (*collect.Kube, error) {
		if g == nil || g.ConfigFlags == nil {
			return nil, errors.New("no kubeconfig")
		}
		return f.kube(g)()
	}
	label := f.Prom.ClusterLabel
	return &collect.WithCluster{Inner: src, Kube: kube, Pods: promsource.PodsOfNow, Now: time.Now,
		Absent: func(ts []target.Target) string { return promsource.ClusterOfNow(at, now, window, ts, label) }}
}

// basicAuth reads the basic auth credentials: USER:PASSWORD from --prometheus-basic-auth-file,
// or --prometheus-user with the password in the environment.
func (p PromFlags) basicAuth() (string, string, error) {
	switch {
	case p.BasicAuth != "" && p.User != "":
		return "", "", exitcode.UsageError("--prometheus-basic-auth-file and --prometheus-user are exclusive: give one")
	case p.BasicAuth != "":
		b, err := localfile.ReadSmall(p.BasicAuth)
		if err != nil {
			return "", "", exitcode.UsageError("cannot read --prometheus-basic-auth-file: %v", err)
		}
		user, password, ok := strings.Cut(strings.TrimSpace(string(b)), ":")
		if !ok || user == "" || password == "" {
			return "", "", exitcode.UsageError("--prometheus-basic-auth-file %s: give one line USER:PASSWORD", p.BasicAuth)
		}
		redact.AddBasicAuth(user, password)
		return user, password, nil
	case p.User != "":
		password := os.Getenv(PasswordEnv)
		if password == "" {
			return "", "", exitcode.UsageError("--prometheus-user %s: set the password in the environment variable %s", p.User, PasswordEnv)
		}
		redact.AddBasicAuth(p.User, password)
		return p.User, password, nil
	}
	return "", "", nil
}

// throughProxy points cfg at the service ref (NAMESPACE/NAME:PORT) through the API server's
// service proxy, with the kubeconfig's transport and credentials: the API server does not
// pass the caller's Authorization on, nor is its TLS the service's.
func (p PromFlags) throughProxy(g *globals.Flags, ref string, cfg *promapi.Config) error {
	svc, err := parsePromService(ref)
	if err != nil {
		return exitcode.UsageError("%v", err)
	}
	if cfg.Token != "" || cfg.User != "" || cfg.CAFile != "" || cfg.Insecure {
		return exitcode.UsageError("--prometheus %s goes through the API server with the kubeconfig's credentials and TLS: give no --prometheus-bearer-token, --prometheus-token-file, basic auth, --prometheus-ca-file or --prometheus-insecure-skip-tls-verify", svc)
	}
	if g == nil || g.ConfigFlags == nil {
		return exitcode.UsageError("--prometheus %s needs a kubeconfig", svc)
	}
	rc, err := g.ConfigFlags.ToRESTConfig()
	if err != nil {
		return fmt.Errorf("kubeconfig: %w", err)
	}
	redact.Add(rc.BearerToken, rc.Password)
	base, rt, err := svc.proxy(rc)
	if err != nil {
		return err
	}
	cfg.URL, cfg.Transport, cfg.Name, cfg.GET = base, rt, svc.String()+" (through the API server's service proxy)", true
	return nil
}

// ParseAt reads --at: RFC 3339, or a duration relative to now ("-2h"); "" is now.
func ParseAt(s string, now time.Time) (time.Time, error) {
	switch {
	case s == "" || s == "now":
		return now, nil
	case strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+"):
		d, err := time.ParseDuration(s)
		if err != nil {
			return time.Time{}, fmt.Errorf("--at %q: give RFC 3339 (2026-03-02T03:00:00Z) or a duration before now (-2h)", s)
		}
		if d > 0 {
			return time.Time{}, fmt.Errorf("--at %q is in the future", s)
		}
		return now.Add(d), nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("--at %q: give RFC 3339 (2026-03-02T03:00:00Z) or a duration before now (-2h)", s)
	}
	if t.After(now) {
		return time.Time{}, fmt.Errorf("--at %s is in the future", s)
	}
	return t, nil
}

// promLog is where the Prometheus source says what its queries cost, with -v.
func promLog(errOut interface{ Write([]byte) (int, error) }) func(string) {
	if !klog.V(1).Enabled() {
		return nil
	}
	return func(s string) { fmt.Fprintln(errOut, stderrline.Line(s)) }
}
