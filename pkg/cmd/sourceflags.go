// This file holds the flags that say what to scrape and how, shared by queues, report
// and targets: cluster discovery (TARGET arguments, -l, --include-apiserver, --port/--path/
// --scheme, --via), direct sources (--url, --from-file), metrics credentials and TLS, the
// bounds of the work, and a Prometheus server to read instead (--prometheus, --window, --at,
// --clusters). It checks them in the user's words and turns them into a run.Spec.

package cmd

import (
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/localfile"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/run"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// SourceFlags are the values of the source flags.
type SourceFlags struct {
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
}

// DefaultDeadline bounds the reading of all targets: time for the two samples 5s apart of
// many targets at --concurrency 8, and short enough that a hung cluster does not hold a
// terminal for long.
const DefaultDeadline = 2 * time.Minute

// Vias are the values of --via, the ways to reach pods a user can ask for, auto first.
var Vias = []string{string(target.ViaAuto), string(target.ViaProxy), string(target.ViaPortForward)}

// RegisterCompletions offers the values of --via to shell completion on cmd, which has the
// flags of AddFlags.
func (f *SourceFlags) RegisterCompletions(cmd *cobra.Command) {
	cli.CompleteFlag(cmd, "via", cli.CompleteWords(Vias...))
}

// SourceDefaults for every command; report turns IncludeAPIServer on.
func SourceDefaults() SourceFlags {
	return SourceFlags{Interval: 5 * time.Second, Timeout: 10 * time.Second, MaxBodyBytes: run.DefaultMaxBodyBytes,
		Concurrency: 8, Via: string(target.ViaAuto), Deadline: DefaultDeadline}
}

// AddFlags registers the flags. sampling adds --interval (not for targets, which reads nothing).
func (f *SourceFlags) AddFlags(fs *pflag.FlagSet, sampling bool) {
	fs.StringArrayVar(&f.URLs, "url", nil, "Metrics endpoint to read directly (http or https; repeatable)")
	fs.StringArrayVar(&f.Files, "from-file", nil, `Saved metrics page to read: PATH ("-" for stdin) or BEFORE,AFTER (two samples of one target), named by the last page's base name; NAME=PATH or NAME=BEFORE,AFTER names it NAME (letters, digits, . _ -; a file that exists as written is read as a path); repeatable`)
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
		fs.DurationVar(&f.Deadline, "deadline", f.Deadline, "Time limit for the whole run, from its start (finding the targets, reading them, the cluster after): the targets not read by then are errors saying so, and a run that read none fails saying so")
		fs.StringVar(&f.FromSnapshot, "from-snapshot", "", "Read a snapshot (kubectl ctrldiag snapshot -f) instead of the cluster: what the run that took it read, at that time")
	}
	fs.DurationVar(&f.Timeout, "timeout", f.Timeout, "Time limit for reading one page of one target")
	fs.IntVar(&f.Concurrency, "concurrency", f.Concurrency, "How many targets are read at once")
	f.Prom.addPromFlags(fs, sampling)
}

// liveSpec checks the flags and says the targets themselves: the cluster, TARGETs, --url,
// --from-file. args are the TARGET arguments.
func (f *SourceFlags) liveSpec(g *cli.GlobalFlags, args []string) (run.Spec, error) {
	if err := f.validate(args); err != nil {
		return run.Spec{}, err
	}
	token := f.Token
	if f.TokenFile != "" {
		b, err := localfile.ReadSmall(f.TokenFile)
		if err != nil {
			return run.Spec{}, cli.UsageError("cannot read --token-file: %v", err)
		}
		if token = strings.TrimSpace(string(b)); token == "" {
			return run.Spec{}, cli.UsageError("--token-file %s is empty", f.TokenFile)
		}
	}
	ns, err := g.Namespace()
	if err != nil {
		return run.Spec{}, err
	}
	direct := len(f.URLs) > 0 || len(f.Files) > 0
	s := f.bounds()
	s.URLs, s.Files = f.URLs, f.Files
	s.Token, s.CAFile, s.Insecure = token, f.CAFile, f.Insecure
	// The cluster is read unless only saved pages or URLs were asked for.
	s.Cluster = !direct || len(args) > 0
	s.Namespace, s.Selector, s.Explicit, s.IncludeAPIServer = ns, f.Selector, args, f.includeAPIServer(g, args)
	s.Port, s.Path, s.Scheme = f.Port, f.Path, f.Scheme
	s.Via, s.TokenFromSA, s.UseKubeconfigToken = f.Via, f.TokenFromSA, f.UseKubeconfigToken
	return s, nil
}

// bounds is a Spec with the bounds of the work.
func (f *SourceFlags) bounds() run.Spec {
	return run.Spec{Interval: f.Interval, Timeout: f.Timeout, MaxBodyBytes: f.MaxBodyBytes, Concurrency: f.Concurrency, Deadline: f.Deadline}
}

func (f *SourceFlags) validate(args []string) error {
	switch {
	case f.Interval < 0:
		return cli.UsageError("--interval must be 0 (one sample) or positive, got %s", f.Interval)
	case f.Timeout <= 0:
		return cli.UsageError("--timeout must be positive, got %s", f.Timeout)
	case f.MaxBodyBytes <= 0:
		return cli.UsageError("--max-body-bytes must be positive, got %d", f.MaxBodyBytes)
	case f.Deadline <= f.Interval:
		return cli.UsageError("--deadline %s must be longer than --interval %s, or no target gets its second sample", f.Deadline, f.Interval)
	case f.Concurrency <= 0:
		return cli.UsageError("--concurrency must be positive, got %d", f.Concurrency)
	case f.Token != "" && f.TokenFile != "", f.Token != "" && f.TokenFromSA != "", f.TokenFile != "" && f.TokenFromSA != "",
		f.UseKubeconfigToken && (f.Token != "" || f.TokenFile != "" || f.TokenFromSA != ""):
		return cli.UsageError("--token, --token-file, --token-from-sa and --use-kubeconfig-token are exclusive: give one")
	case f.Port < 0 || f.Port > 65535:
		return cli.UsageError("--port %d is not a port number", f.Port)
	case f.Scheme != "" && f.Scheme != "http" && f.Scheme != "https":
		return cli.UsageError("--scheme must be http or https, got %q", f.Scheme)
	}
	if !slices.Contains(Vias, f.Via) {
		last := len(Vias) - 1
		return cli.UsageError("--via must be %s or %s, got %q", strings.Join(Vias[:last], ", "), Vias[last], f.Via)
	}
	if err := run.CheckFiles(f.Files); err != nil {
		return cli.UsageError("%v", err)
	}
	if len(f.Files) > 0 && len(f.URLs) == 0 && len(args) == 0 && (f.Token != "" || f.TokenFile != "" || f.TokenFromSA != "" || f.UseKubeconfigToken) {
		return cli.UsageError("--from-file reads saved pages: --token, --token-file, --token-from-sa and --use-kubeconfig-token apply to what is read over HTTP (--url, the cluster's pods)")
	}
	for _, u := range f.URLs {
		if err := run.CheckURL(u); err != nil {
			return cli.UsageError("%v", err)
		}
	}
	for _, a := range args {
		if err := run.CheckTarget(a); err != nil {
			return cli.UsageError("%v", err)
		}
	}
	return nil
}

// Spec checks the flags and says the source they ask for: a snapshot, a Prometheus server,
// or the targets themselves. args are the TARGET arguments.
func (f *SourceFlags) Spec(g *cli.GlobalFlags, args []string) (run.Spec, error) {
	if err := CheckDeadline(f.Deadline); err != nil {
		return run.Spec{}, err
	}
	if f.FromSnapshot != "" {
		if f.Prom.URL != "" {
			return run.Spec{}, cli.UsageError("--from-snapshot and --prometheus are two sources: give one")
		}
		return f.snapshotSpec(args)
	}
	if f.Prom.URL != "" {
		return f.prometheusSpec(g, args, time.Now())
	}
	if set := f.promOnlyFlagsSet(); len(set) > 0 {
		return run.Spec{}, cli.UsageError("%s applies only with --prometheus URL", strings.Join(set, ", "))
	}
	return f.liveSpec(g, args)
}

// includeAPIServer: the API server is a controller of the whole cluster, so a cluster-wide
// look (-A, no named targets, no -l narrowing the pods) includes it unless
// --include-apiserver=false says otherwise.
func (f *SourceFlags) includeAPIServer(g *cli.GlobalFlags, args []string) bool {
	if f.flags != nil && f.flags.Changed("include-apiserver") {
		return f.IncludeAPIServer
	}
	return f.IncludeAPIServer || (g.AllNamespaces && len(args) == 0 && f.Selector == "" && len(f.URLs) == 0 && len(f.Files) == 0)
}
