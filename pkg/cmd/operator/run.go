package operator

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/scenario"
)

// RunOptions holds the flag values of `operator run`.
type RunOptions struct {
	g      *cli.GlobalFlags
	Config operator.Config
	// LogFormat is the shape of the operator's log (logFormats).
	LogFormat string
	genericiooptions.IOStreams
}

func newRunCmd(g *cli.GlobalFlags, streams genericiooptions.IOStreams) *cobra.Command {
	o := &RunOptions{g: g, Config: operator.DefaultConfig(), IOStreams: streams, LogFormat: "klog"}
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run the reference operator against the current kubeconfig until SIGINT/SIGTERM",
		Long: `Run the reference operator in the foreground against the current kubeconfig, in the namespace
of -n (else the context's), or with --watch-all-namespaces in every namespace. It installs its CRD when missing, serves /metrics, /healthz and
/readyz, and with --scenario NAME creates and keeps changing that scenario's Workloads.
SIGINT or SIGTERM stops taking work, lets in-flight reconciles finish and exits 0.

Scenarios:
` + scenarioHelp(),
		Example: `  kubectl ctrldiag operator run -n demo --scenario saturated
  kubectl ctrldiag operator run -n demo --metrics-secure --metrics-bind-address :8443`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.Complete(cmd); err != nil {
				return err
			}
			if _, err := newLogger(o.LogFormat, o.ErrOut); err != nil {
				return cli.UsageError("%v", err)
			}
			if err := o.Config.Validate(); err != nil {
				return cli.UsageError("%v", err)
			}
			cmd.SilenceUsage = true
			return o.Run(cmd.Context())
		},
	}
	c := &o.Config
	f := cmd.Flags()
	f.StringVar(&c.MetricsBindAddress, "metrics-bind-address", c.MetricsBindAddress, `Address of the /metrics endpoint, e.g. ":8080" (HTTP) or ":8443" with --metrics-secure; "0" disables it`)
	f.BoolVar(&c.MetricsSecure, "metrics-secure", c.MetricsSecure, "Serve /metrics over HTTPS and admit only bearer tokens allowed to get /metrics (TokenReview + SubjectAccessReview, as kubebuilder's scaffold)")
	f.StringVar(&c.MetricsCertDir, "metrics-cert-dir", c.MetricsCertDir, "Directory with tls.crt and tls.key for --metrics-secure (default: a self-signed certificate)")
	f.BoolVar(&c.EnableHTTP2, "enable-http2", c.EnableHTTP2, "Allow HTTP/2 on the HTTPS metrics server (off by default, as in kubebuilder)")
	f.StringVar(&c.HealthProbeAddress, "health-probe-bind-address", c.HealthProbeAddress, `Address of /healthz and /readyz (ready once the informer caches synced); "0" disables them`)
	f.StringVar(&c.PprofBindAddress, "pprof-bind-address", c.PprofBindAddress, `Address of net/http/pprof (/debug/pprof/, e.g. ":8082"), which report reads the goroutine dump of stuck workers from; "" or "0" disables it`)
	f.BoolVar(&c.WatchAllNamespaces, "watch-all-namespaces", c.WatchAllNamespaces, "Reconcile Workloads in every namespace, not only in -n's (which still holds the Lease and the scenario's Workloads); the operator's RBAC must let it list and watch them everywhere")
	f.StringVar(&c.WorkloadSelector, "workload-selector", c.WorkloadSelector, "Reconcile only the Workloads this label selector matches, e.g. team=a (a scenario's own Workloads carry no labels)")
	f.BoolVar(&c.LeaderElect, "leader-elect", c.LeaderElect, "Elect a leader with a Lease in the namespace, so that leader_election_master_status is exported")
	f.StringVar(&c.LeaderElectionID, "leader-election-id", c.LeaderElectionID, "Name of the leader election Lease")
	f.BoolVar(&c.Warmup, "warmup", c.Warmup, "Start the controller's watches before this replica leads (controller-runtime warm replicas): a standby's workqueue fills while no worker runs (the warm-standby scenario turns it on)")
	f.IntVar(&c.Workers, "workers", c.Workers, "Concurrent reconciles (MaxConcurrentReconciles; a scenario such as apf-throttled raises it unless set)")
	f.StringVar(&c.Scenario, "scenario", c.Scenario, "Fault scenario to create load for: "+strings.Join(scenario.Names(), ", ")+" (default: none)")
	f.Float32Var(&c.QPS, "qps", c.QPS, "Client-side rate limit of the operator's API client, requests per second (a scenario such as throttled lowers it unless set)")
	f.IntVar(&c.Burst, "burst", c.Burst, "Client-side burst of the operator's API client")
	f.DurationVar(&c.GracefulShutdown, "graceful-shutdown-timeout", c.GracefulShutdown, "How long in-flight reconciles may take to finish after SIGTERM")
	f.StringVar(&c.WebhookBindAddress, "webhook-bind-address", c.WebhookBindAddress, "HOST:PORT of the admission webhook the slow-webhook scenario serves and registers (HOST: an address the API server reaches, e.g. the pod's IP)")
	f.BoolVar(&c.InstallCRD, "install-crd", c.InstallCRD, "Install the Workload CRD with server-side apply when it is missing")
	f.StringVar(&o.LogFormat, "log-format", o.LogFormat, "Shape of the log on standard error: "+strings.Join(logFormatNames(), ", ")+
		" (zap-console is kubebuilder's scaffold, zap-json controller-runtime's production default)")
	_ = cmd.RegisterFlagCompletionFunc("scenario", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return scenario.Names(), cobra.ShellCompDirectiveNoFileComp
	})
	_ = cmd.RegisterFlagCompletionFunc("log-format", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return logFormatNames(), cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

// Complete fills the namespace and notes which client limits the user set.
func (o *RunOptions) Complete(cmd *cobra.Command) error {
	if o.g.AllNamespaces {
		return cli.UsageError("operator run works in one namespace: use -n NAMESPACE instead of -A")
	}
	ns, err := o.g.Namespace()
	if err != nil {
		return fmt.Errorf("read the namespace from the kubeconfig: %w", err)
	}
	o.Config.Namespace = ns
	o.Config.ClientLimitsSet = cmd.Flags().Changed("qps") || cmd.Flags().Changed("burst")
	o.Config.WorkersSet = cmd.Flags().Changed("workers")
	return nil
}

// Run starts the operator and blocks until SIGINT/SIGTERM or a fatal error.
func (o *RunOptions) Run(ctx context.Context) error {
	restCfg, err := o.g.ConfigFlags.ToRESTConfig()
	if err != nil {
		return fmt.Errorf("load the kubeconfig (set --kubeconfig or KUBECONFIG): %w", err)
	}
	logger, err := newLogger(o.LogFormat, o.ErrOut)
	if err != nil {
		return err
	}
	ctrl.SetLogger(logger)
	if o.LogFormat != "klog" {
		klog.SetLogger(logger) // client-go's own lines (throttling waits) in the same shape
	}
	ctx, stop := signal.NotifyContext(log.IntoContext(ctx, logger), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return operator.Run(ctx, restCfg, o.Config)
}

func scenarioHelp() string {
	var b strings.Builder
	for _, s := range scenario.All() {
		fmt.Fprintf(&b, "  %-14s %s\n", s.Name, s.Signature)
	}
	return b.String()
}
