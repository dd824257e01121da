package cmd

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/localfile"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/run"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/promsource"
)

// PromFlags are the flags of the Prometheus source: a server that speaks the Prometheus HTTP
// API answers instead of the targets themselves.
type PromFlags struct {
	URL          string
	TokenFile    string
	BearerToken  string
	Headers      []string
	Tenant       string
	CAFile       string
	Insecure     bool
	BasicAuth    string
	User         string
	MaxSeries    int
	Window       time.Duration
	At           string
	Clusters     []string
	ClusterLabel string
	// ReplicaLabels tell the replicas of an HA pair apart; given on the command line, they
	// are also sent to the server, asking it to deduplicate over them.
	ReplicaLabels []string
	// PartialResponse accepts answers some stores did not contribute to (said as partial);
	// off, the server is asked to fail instead (Thanos Query's partial_response=false).
	PartialResponse bool
	// MaxSourceResolution is the coarsest downsampled data the server may answer from:
	// auto (chosen from the window), raw, 5m or 1h (Thanos Query's max_source_resolution).
	MaxSourceResolution string
}

// addPromFlags registers them; sampling adds --window.
func (p *PromFlags) addPromFlags(fs *pflag.FlagSet, sampling bool) {
	fs.StringVar(&p.URL, "prometheus", "", "Read the series of a server that speaks the Prometheus HTTP API (Prometheus, Thanos Query, Mimir with its path prefix, VictoriaMetrics) instead of scraping: its base URL, e.g. http://prometheus:9090, or svc/NAMESPACE/NAME:PORT through the API server's service proxy")
	fs.StringVar(&p.BasicAuth, "prometheus-basic-auth-file", "", "File holding USER:PASSWORD, sent to --prometheus as basic auth (never printed)")
	fs.StringVar(&p.User, "prometheus-user", "", "User sent to --prometheus as basic auth, the password read from the environment variable "+PasswordEnv)
	fs.StringVar(&p.TokenFile, "prometheus-token-file", "", "File holding a bearer token for --prometheus")
	fs.StringVar(&p.BearerToken, "prometheus-bearer-token", "", "Bearer token for --prometheus (never printed; --prometheus-token-file keeps it out of the shell history)")
	fs.StringArrayVar(&p.Headers, "prometheus-header", nil, "Header sent to --prometheus, as NAME=VALUE (repeatable; e.g. X-Scope-OrgID=TENANT for Mimir)")
	fs.StringVar(&p.Tenant, "tenant", "", "With --prometheus: the tenant whose series are read, sent as X-Scope-OrgID (Mimir, Cortex) and THANOS-TENANT (Thanos Query with tenancy, Thanos Receive)")
	fs.StringVar(&p.CAFile, "prometheus-ca-file", "", "CA certificate file to verify an https --prometheus")
	fs.BoolVar(&p.Insecure, "prometheus-insecure-skip-tls-verify", false, "Do not verify the certificate of an https --prometheus")
	fs.IntVar(&p.MaxSeries, "prometheus-max-series", run.DefaultMaxSeries, "Most series one answer of --prometheus may hold; a larger answer is an error")
	fs.StringVar(&p.At, "at", "", "With --prometheus: the end of the window, RFC 3339 (2026-03-02T03:00:00Z) or relative to now (-2h) (default now)")
	fs.StringSliceVar(&p.Clusters, "clusters", nil, "With --prometheus: read only these clusters (values of --cluster-label; default every cluster in the store)")
	fs.StringVar(&p.ClusterLabel, "cluster-label", "cluster", "With --prometheus: the label that tells clusters apart")
	fs.StringSliceVar(&p.ReplicaLabels, "replica-label", DefaultReplicaLabels, "With --prometheus: the labels that tell the replicas of an HA pair apart; each target is read from one replica. Given, the server is also asked to deduplicate over them (Thanos Query's dedup); --replica-label= reads every replica")
	fs.BoolVar(&p.PartialResponse, "partial-response", true, "With --prometheus: accept an answer some of the server's stores did not contribute to (Thanos Query, Mimir), reported as partial; --partial-response=false asks Thanos Query to fail instead (partial_response=false)")
	fs.StringVar(&p.MaxSourceResolution, "max-source-resolution", "auto", "With --prometheus: the coarsest downsampled data Thanos Query may answer from (max_source_resolution, sent with every query; Prometheus and VictoriaMetrics ignore it): auto (raw for a --window under 25m, 5m from 25m, 1h from 5h; when a Thanos Query finds no targets at that level for a window old enough to be compacted, it asks once more one level coarser and says so), raw, 5m or 1h (never retried)")
	if sampling {
		fs.DurationVar(&p.Window, "window", run.DefaultWindow, "With --prometheus: the window judged; rates and increases run over it, between the two samples rebuilt from its ends")
	}
}

// DefaultReplicaLabels are the usual replica labels of HA pairs: Thanos' replica external label
// and the Prometheus Operator's prometheus_replica.
var DefaultReplicaLabels = []string{"replica", "prometheus_replica"}

// PasswordEnv is the environment variable holding the basic auth password of --prometheus-user.
const PasswordEnv = "CTRLDIAG_PROMETHEUS_PASSWORD"

var headerName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9!#$%&'*+.^_|~-]+$`) })

// TenantHeaders are the headers --tenant sets: Mimir's and Cortex's, and Thanos'.
var TenantHeaders = []string{"X-Scope-OrgID", "THANOS-TENANT"}

// promChanged lists the Prometheus-only flags set without --prometheus.
func (f *SourceFlags) promOnlyFlagsSet() []string {
	var set []string
	if f.flags == nil {
		return nil
	}
	for _, n := range []string{"prometheus-basic-auth-file", "prometheus-user", "prometheus-token-file", "prometheus-bearer-token", "prometheus-header", "tenant", "prometheus-ca-file",
		"prometheus-insecure-skip-tls-verify", "prometheus-max-series", "window", "at", "clusters", "cluster-label", "replica-label", "partial-response", "max-source-resolution"} {
		if fl := f.flags.Lookup(n); fl != nil && fl.Changed {
			set = append(set, "--"+n)
		}
	}
	return set
}

// prometheusSpec checks the Prometheus flags and says the server's source, read as of now.
func (f *SourceFlags) prometheusSpec(g *cli.GlobalFlags, args []string, now time.Time) (run.Spec, error) {
	p := f.Prom
	switch {
	case len(args) > 0 || len(f.URLs) > 0 || len(f.Files) > 0:
		return run.Spec{}, cli.UsageError("--prometheus reads series instead of targets: give no TARGET, --url or --from-file with it")
	case f.flags != nil && f.flags.Lookup("interval") != nil && f.flags.Lookup("interval").Changed:
		return run.Spec{}, cli.UsageError("--prometheus: the samples are the window's ends: give --window, not --interval")
	case f.Selector != "":
		return run.Spec{}, cli.UsageError("--prometheus: -l selects pods in a cluster; narrow the series with -n or --clusters")
	case f.Token != "" || f.TokenFile != "" || f.TokenFromSA != "" || f.UseKubeconfigToken:
		return run.Spec{}, cli.UsageError("--token, --token-file, --token-from-sa and --use-kubeconfig-token are the metrics endpoints' credentials: the server's are --prometheus-bearer-token or --prometheus-token-file")
	case f.flags != nil && f.flags.Lookup("window") != nil && p.Window <= 0:
		return run.Spec{}, cli.UsageError("--window must be positive, got %s", p.Window)
	}
	if p.MaxSourceResolution != "" && !slices.Contains(promsource.ResolutionChoices, p.MaxSourceResolution) {
		return run.Spec{}, cli.UsageError("--max-source-resolution %q: give %s", p.MaxSourceResolution, strings.Join(promsource.ResolutionChoices, ", "))
	}
	at, err := ParseAt(p.At, now)
	if err != nil {
		return run.Spec{}, cli.UsageError("%v", err)
	}
	server, err := f.promServer(g)
	if err != nil {
		return run.Spec{}, err
	}
	server.At, server.Now, server.Window = at, now, p.Window
	ns := ""
	if !g.AllNamespaces && g.ConfigFlags != nil && g.ConfigFlags.Namespace != nil {
		ns = *g.ConfigFlags.Namespace
	}
	s := f.bounds()
	s.Namespace, s.Prometheus = ns, server
	return s, nil
}

// basicAuth reads the basic auth credentials: USER:PASSWORD from --prometheus-basic-auth-file,
// or --prometheus-user with the password in the environment.
func (p PromFlags) basicAuth() (string, string, error) {
	switch {
	case p.BasicAuth != "" && p.User != "":
		return "", "", cli.UsageError("--prometheus-basic-auth-file and --prometheus-user are exclusive: give one")
	case p.BasicAuth != "":
		b, err := localfile.ReadSmall(p.BasicAuth)
		if err != nil {
			return "", "", cli.UsageError("cannot read --prometheus-basic-auth-file: %v", err)
		}
		user, password, ok := strings.Cut(strings.TrimSpace(string(b)), ":")
		if !ok || user == "" || password == "" {
			return "", "", cli.UsageError("--prometheus-basic-auth-file %s: give one line USER:PASSWORD", p.BasicAuth)
		}
		return user, password, nil
	case p.User != "":
		password := os.Getenv(PasswordEnv)
		if password == "" {
			return "", "", cli.UsageError("--prometheus-user %s: set the password in the environment variable %s", p.User, PasswordEnv)
		}
		return p.User, password, nil
	}
	return "", "", nil
}

// checkService checks --prometheus svc/NAMESPACE/NAME:PORT: the server is reached through
// the API server with the kubeconfig's credentials and TLS, and none of its own.
func checkService(g *cli.GlobalFlags, ref string, server run.Prometheus) error {
	svc, err := run.ParseService(ref)
	if err != nil {
		return cli.UsageError("%v", err)
	}
	if server.Token != "" || server.User != "" || server.CAFile != "" || server.Insecure {
		return cli.UsageError("--prometheus %s goes through the API server with the kubeconfig's credentials and TLS: give no --prometheus-bearer-token, --prometheus-token-file, basic auth, --prometheus-ca-file or --prometheus-insecure-skip-tls-verify", svc)
	}
	if g == nil || g.ConfigFlags == nil {
		return cli.UsageError("--prometheus %s needs a kubeconfig", svc)
	}
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
