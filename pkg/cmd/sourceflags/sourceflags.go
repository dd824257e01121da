// Package sourceflags holds the flags that say what to scrape and how, shared by queues, report
// and targets: cluster discovery (TARGET arguments, -l, --include-apiserver, --port/--path/
// --scheme, --via), direct sources (--url, --from-file), metrics credentials and TLS, the
// bounds of the work, and a Prometheus server to read instead (--prometheus, --window, --at,
// --clusters). It turns them into a source: collect's, or promsource's.
package sourceflags

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/client-go/kubernetes"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/completion"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/exitcode"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/globals"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/progress"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/collect"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/discover"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/engine"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/localfile"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/promsource"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/scrape"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// Flags are the values of the source flags.
type Flags struct {
	URLs               []string
	Files              []string
	Token              string
	TokenFile          string
	TokenFromSA        string
	UseKubeconfigToken bool
	CAFile             string
	Insecure           bool
	Selector           string
	IncludeAPIServer   bool
	flags              *pflag.FlagSet
	Port               int32
	Path               string
	Scheme             string
	Via                string
	Interval           time.Duration
	Timeout            time.Duration
	MaxBodyBytes       int64
	Concurrency        int
	Deadline           time.Duration
	// Prom are the flags of the Prometheus source (--prometheus and its companions).
	Prom PromFlags
	// FromSnapshot is the snapshot file to read instead of the cluster (--from-snapshot).
	FromSnapshot string
	// KeepForwards keeps each pod's port-forward open from one reading to the next (top's
	// refreshes); not a flag.
	KeepForwards bool
	// ClusterWithPrometheus adds, to the series of --prometheus, the kubeconfig's cluster when
	// it is the one read and the report is about now (report's pods, objects and Leases); not
	// a flag.
	ClusterWithPrometheus bool
}

// DefaultDeadline bounds the reading of all targets: time for the two samples 5s apart of
// many targets at --concurrency 8, and short enough that a hung cluster does not hold a
// terminal for long.
const DefaultDeadline = 2 * time.Minute

// Vias are the values of --via, the ways to reach pods a user can ask for, auto first.
var Vias = []string{string(target.ViaAuto), string(target.ViaProxy), string(target.ViaPortForward)}

// RegisterCompletions offers the values of --via to shell completion on cmd, which has the
// flags of AddFlags.
func (f *Flags) RegisterCompletions(cmd *cobra.Command) {
	completion.Register(cmd, "via", completion.Words(Vias...))
}

// Defaults for every command; report turns IncludeAPIServer on.
func Defaults() Flags {
	return Flags{Interval: 5 * time.Second, Timeout: 10 * time.Second, MaxBodyBytes: scrape.DefaultMaxBodyBytes,
		Concurrency: 8, Via: string(target.ViaAuto), Deadline: DefaultDeadline}
}

// AddFlags registers the flags. sampling adds --interval (not for targets, which reads nothing).
func (f *Flags) AddFlags(fs *pflag.FlagSet, sampling bool) {
	fs.StringArrayVar(&f.URLs, "url", nil, "Metrics endpoint to read directly (http or https; repeatable)")
	fs.StringArrayVar(&f.Files, "from-file", nil, `Saved metrics page to read ("-" for stdin; BEFORE,AFTER for two samples of one target; repeatable)`)
	fs.StringVarP(&f.Selector, "selector", "l", "", "Label selector for the pods to look at (e.g. app=my-operator)")
	fs.BoolVar(&f.IncludeAPIServer, "include-apiserver", f.IncludeAPIServer, "Also read the API server's own /metrics (default: on with -A and in report)")
	f.flags = fs
	fs.Int32Var(&f.Port, "port", 0, "Metrics port on the pods (default: found from annotations, port names and known components)")
	fs.StringVar(&f.Path, "path", "", "Metrics path (default /metrics, or the prometheus.io/path annotation)")
	fs.StringVar(&f.Scheme, "scheme", "", "http or https (default: found from annotations and port names)")
	fs.StringVar(&f.Via, "via", f.Via, "How to reach pods: auto, proxy (the API server's proxy) or port-forward")
	fs.StringVar(&f.Token, "token", "", "Bearer token for metrics endpoints (never printed; sent only to the endpoint, so pods are reached by port-forward)")
	fs.StringVar(&f.TokenFile, "token-file", "", "File holding the bearer token for metrics endpoints")
	fs.StringVar(&f.TokenFromSA, "token-from-sa", "", "Mint a short-lived metrics token for service account NAMESPACE/NAME (TokenRequest)")
	fs.BoolVar(&f.UseKubeconfigToken, "use-kubeconfig-token", false, "Send the kubeconfig user's bearer token to metrics endpoints")
	fs.StringVar(&f.CAFile, "metrics-ca-file", "", "CA certificate file to verify https metrics endpoints")
	fs.BoolVar(&f.Insecure, "insecure-skip-tls-verify-metrics", false, "Do not verify the certificates of https metrics endpoints (self-signed test endpoints only: whoever can intercept the connection can read the token and fake the metrics)")
	if sampling {
		fs.DurationVar(&f.Interval, "interval", f.Interval, "Time between the two samples used for rates; 0 takes one sample (lifetime quantiles, no rates)")
		fs.Int64Var(&f.MaxBodyBytes, "max-body-bytes", f.MaxBodyBytes, "Largest page accepted, after decompression")
		fs.DurationVar(&f.Deadline, "deadline", f.Deadline, "Time limit for reading all targets; the targets not read by then are errors saying so")
		fs.StringVar(&f.FromSnapshot, "from-snapshot", "", "Read a snapshot (kubectl ctrldiag snapshot -f) instead of the cluster: what the run that took it read, at that time")
	}
	fs.DurationVar(&f.Timeout, "timeout", f.Timeout, "Time limit for reading one page of one target")
	fs.IntVar(&f.Concurrency, "concurrency", f.Concurrency, "How many targets are read at once")
	f.Prom.addPromFlags(fs, sampling)
}

// config validates the flags and builds the collect configuration. args are the TARGET
// arguments; stdin is read for --from-file -.
func (f *Flags) config(g *globals.Flags, args []string, stdin io.Reader) (collect.Config, error) {
	if err := f.validate(args); err != nil {
		return collect.Config{}, err
	}
	token := f.Token
	if f.TokenFile != "" {
		b, err := localfile.ReadSmall(f.TokenFile)
		if err != nil {
			return collect.Config{}, exitcode.UsageError("cannot read --token-file: %v", err)
		}
		if token = strings.TrimSpace(string(b)); token == "" {
			return collect.Config{}, exitcode.UsageError("--token-file %s is empty", f.TokenFile)
		}
	}
	redact.Add(token)
	ns, err := g.Namespace()
	if err != nil {
		return collect.Config{}, err
	}
	direct := len(f.URLs) > 0 || len(f.Files) > 0
	cfg := collect.Config{
		URLs: f.URLs, Files: f.Files, Stdin: stdin,
		HTTP: scrape.HTTPConfig{Token: token, CAFile: f.CAFile, InsecureSkipVerify: f.Insecure, MaxBodyBytes: f.MaxBodyBytes},
		// The cluster is read unless only saved pages or URLs were asked for.
		Cluster: !direct || len(args) > 0,
		Discover: discover.Options{Namespace: ns, Selector: f.Selector, Explicit: args, IncludeAPIServer: f.includeAPIServer(g, args),
			Port: f.Port, Path: f.Path, Scheme: f.Scheme},
		Via: target.Via(f.Via), TokenFromSA: f.TokenFromSA, UseKubeconfigToken: f.UseKubeconfigToken,
		KeepForwards: f.KeepForwards,
	}
	return cfg, nil
}

func (f *Flags) validate(args []string) error {
	switch {
	case f.Interval < 0:
		return exitcode.UsageError("--interval must be 0 (one sample) or positive, got %s", f.Interval)
	case f.Timeout <= 0:
		return exitcode.UsageError("--timeout must be positive, got %s", f.Timeout)
	case f.MaxBodyBytes <= 0:
		return exitcode.UsageError("--max-body-bytes must be positive, got %d", f.MaxBodyBytes)
	case f.Deadline <= 0:
		return exitcode.UsageError("--deadline must be positive, got %s", f.Deadline)
	case f.Deadline <= f.Interval:
		return exitcode.UsageError("--deadline %s must be longer than --interval %s, or no target gets its second sample", f.Deadline, f.Interval)
	case f.Concurrency <= 0:
		return exitcode.UsageError("--concurrency must be positive, got %d", f.Concurrency)
	case f.Token != "" && f.TokenFile != "", f.Token != "" && f.TokenFromSA != "", f.TokenFile != "" && f.TokenFromSA != "",
		f.UseKubeconfigToken && (f.Token != "" || f.TokenFile != "" || f.TokenFromSA != ""):
		return exitcode.UsageError("--token, --token-file, --token-from-sa and --use-kubeconfig-token are exclusive: give one")
	case f.Port < 0 || f.Port > 65535:
		return exitcode.UsageError("--port %d is not a port number", f.Port)
	case f.Scheme != "" && f.Scheme != "http" && f.Scheme != "https":
		return exitcode.UsageError("--scheme must be http or https, got %q", f.Scheme)
	}
	if !slices.Contains(Vias, f.Via) {
		last := len(Vias) - 1
		return exitcode.UsageError("--via must be %s or %s, got %q", strings.Join(Vias[:last], ", "), Vias[last], f.Via)
	}
	stdin := 0
	for _, file := range f.Files {
		paths := strings.Split(file, ",")
		if len(paths) > 2 || file == "" || strings.HasPrefix(file, ",") || strings.HasSuffix(file, ",") {
			return exitcode.UsageError("--from-file %q: give one path, or two as BEFORE,AFTER", file)
		}
		for _, p := range paths {
			if p == "-" {
				stdin++
			}
		}
	}
	if stdin > 1 {
		return exitcode.UsageError(`--from-file: standard input ("-") can be read only once`)
	}
	for _, u := range f.URLs {
		if _, err := scrape.NewURLSource(u, nil, scrape.HTTPConfig{}); err != nil {
			return exitcode.UsageError("%v", err)
		}
	}
	for _, a := range args {
		if _, _, err := discover.ParseExplicit(a); err != nil {
			return exitcode.UsageError("%v", err)
		}
	}
	return nil
}

// Resolved is what the source flags say, in the engines' terms.
type Resolved struct {
	// Source reads the targets; it connects to the cluster only when the cluster is read.
	Source source.Source
	// Scope says where targets are looked for; Read how they are read.
	Scope engine.Scope
	Read  source.Options
	// Now is the time of the run: the time a snapshot was taken; nil for now.
	Now func() time.Time

	// at is the instant asked about (--at), zero for now; prom is the Prometheus source.
	at   time.Time
	prom *promsource.Source
}

// Resolve validates the flags and builds the source. args are the TARGET arguments; stdin is
// read for --from-file -.
func (f *Flags) Resolve(g *globals.Flags, args []string, stdin io.Reader) (Resolved, error) {
	if f.FromSnapshot != "" {
		if f.Prom.URL != "" {
			return Resolved{}, exitcode.UsageError("--from-snapshot and --prometheus are two sources: give one")
		}
		return f.fromSnapshot(args)
	}
	if f.Prom.URL != "" {
		return f.resolvePrometheus(g, args, time.Now())
	}
	if set := f.promOnlyFlagsSet(); len(set) > 0 {
		return Resolved{}, exitcode.UsageError("%s applies only with --prometheus URL", strings.Join(set, ", "))
	}
	return f.resolveLive(g, args, stdin)
}

// resolveLive builds the source of the targets themselves: the cluster, TARGETs, --url,
// --from-file.
func (f *Flags) resolveLive(g *globals.Flags, args []string, stdin io.Reader) (Resolved, error) {
	cfg, err := f.config(g, args, stdin)
	if err != nil {
		return Resolved{}, err
	}
	return Resolved{
		Source: collect.New(cfg, f.kube(g)),
		Scope:  engine.Scope{Cluster: cfg.Cluster, Namespace: cfg.Discover.Namespace, Selector: cfg.Discover.Selector},
		Read:   source.Options{Interval: f.Interval, Timeout: f.Timeout, Concurrency: f.Concurrency, Deadline: f.Deadline},
	}, nil
}

// Env is where an engine reads from, with its progress line drawn on errOut.
func (r Resolved) Env(errOut io.Writer) engine.Env {
	env := engine.Env{Source: r.Source, Progress: progress.To(errOut), Now: r.Now}
	if !r.at.IsZero() {
		at := r.at
		env.Now = func() time.Time { return at }
	}
	if r.prom != nil {
		r.prom.SetLog(promLog(errOut))
	}
	return env
}

// kube returns the function the source calls to connect to the cluster. Its API calls are
// bounded by --timeout unless --request-timeout says otherwise.
func (f *Flags) kube(g *globals.Flags) func() (*collect.Kube, error) {
	return func() (*collect.Kube, error) {
		cfg, err := g.ConfigFlags.ToRESTConfig()
		if err != nil {
			return nil, fmt.Errorf("kubeconfig: %w", err)
		}
		redact.Add(cfg.BearerToken, cfg.Password)
		if cfg.Timeout == 0 {
			// Every API call is bounded (--request-timeout overrides): an API server that
			// stops answering must not hang discovery or the RBAC checks.
			cfg.Timeout = f.Timeout
		}
		client, err := kubernetes.NewForConfig(cfg)
		if err != nil {
			return nil, fmt.Errorf("kubeconfig: %w", err)
		}
		return &collect.Kube{Config: cfg, Client: client}, nil
	}
}

// includeAPIServer: the API server is a controller of the whole cluster, so a cluster-wide
// look (-A, no named targets, no -l narrowing the pods) includes it unless
// --include-apiserver=false says otherwise.
func (f *Flags) includeAPIServer(g *globals.Flags, args []string) bool {
	if f.flags != nil && f.flags.Changed("include-apiserver") {
		return f.IncludeAPIServer
	}
	return f.IncludeAPIServer || (g.AllNamespaces && len(args) == 0 && f.Selector == "" && len(f.URLs) == 0 && len(f.Files) == 0)
}
