// Command cert-manager-controller runs cert-manager's controllers, at the version pinned in go.mod,
// for the tests. cert-manager's own controller command lives in a nested module
// (cmd/controller, module path github.com/cert-manager/cert-manager/controller-binary) that the
// Go module proxy cannot serve: its path does not match its folder, so no version of it can be
// fetched. This small main does what that command does with the exported packages of the main
// module: it builds pkg/controller's ContextFactory, starts the registered controllers that
// --controllers enables, the shared informers, the metrics server with the certificate, issuer,
// cluster-issuer and ACME-challenge collectors, and optionally a leader election.
//
// The flags it has keep the names and defaults of cert-manager's own, so a pod's args read the
// same: --kubeconfig, --master, --namespace, --cluster-resource-namespace, --controllers,
// --metrics-listen-address, --enable-profiling, --profiler-address, --leader-elect,
// --leader-election-namespace,
// --concurrent-workers, --kube-api-qps, --kube-api-burst, --feature-gates, -v. The others of
// cert-manager's are not here, nor is the Venafi issuer (see defaultControllers).
package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	logsapi "k8s.io/component-base/logs/api/v1"
	"k8s.io/klog/v2"

	controllerpkg "github.com/cert-manager/cert-manager/pkg/controller"
	logf "github.com/cert-manager/cert-manager/pkg/logs"
	utilfeature "github.com/cert-manager/cert-manager/pkg/util/feature"
	"github.com/cert-manager/cert-manager/pkg/util/profiling"

	// The controllers register themselves with pkg/controller when imported.
	_ "github.com/cert-manager/cert-manager/pkg/controller/acmechallenges"
	_ "github.com/cert-manager/cert-manager/pkg/controller/acmeorders"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificate-shim/ingresses"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificaterequests/acme"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificaterequests/approver"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificaterequests/ca"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificaterequests/selfsigned"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificaterequests/vault"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/issuing"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/keymanager"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/metrics"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/readiness"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/requestmanager"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/revisionmanager"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/trigger"
	_ "github.com/cert-manager/cert-manager/pkg/controller/clusterissuers"
	_ "github.com/cert-manager/cert-manager/pkg/controller/issuers"

	// The issuer kinds register themselves with pkg/issuer when imported.
	_ "github.com/cert-manager/cert-manager/pkg/issuer/acme"
	_ "github.com/cert-manager/cert-manager/pkg/issuer/ca"
	_ "github.com/cert-manager/cert-manager/pkg/issuer/selfsigned"
	_ "github.com/cert-manager/cert-manager/pkg/issuer/vault"
)

// defaultControllers is cert-manager's DefaultEnabledControllers (internal to its module) less
// certificaterequests-issuer-venafi: the Venafi issuer needs github.com/Venafi/vcert/v5, which
// the module proxy this project reaches does not serve, so neither it nor the Venafi issuer kind
// is built in.
var defaultControllers = []string{
	"issuers", "clusterissuers", "certificates-metrics", "ingress-shim", "orders", "challenges",
	"certificaterequests-issuer-acme", "certificaterequests-approver", "certificaterequests-issuer-ca",
	"certificaterequests-issuer-selfsigned", "certificaterequests-issuer-vault", "certificates-trigger", "certificates-issuing",
	"certificates-key-manager", "certificates-request-manager", "certificates-readiness",
	"certificates-revision-manager",
}

type options struct {
	master, kubeconfig, namespace, clusterResourceNamespace string
	controllers                                             []string
	metricsAddr                                             string
	enableProfiling                                         bool
	profilerAddr                                            string
	leaderElect                                             bool
	leaderElectionNamespace                                 string
	workers                                                 int
	qps                                                     float32
	burst                                                   int
}

func main() {
	logf.InitLogs()
	defer logf.FlushLogs()
	var o options
	logging := logsapi.NewLoggingConfiguration()
	fs := pflag.NewFlagSet("cert-manager-controller", pflag.ContinueOnError)
	fs.StringVar(&o.master, "master", "", "the address of the Kubernetes API server (overrides the kubeconfig's)")
	fs.StringVar(&o.kubeconfig, "kubeconfig", "", "path to a kubeconfig; empty means in-cluster config")
	fs.StringVar(&o.namespace, "namespace", "", "watch only this namespace; empty means all")
	fs.StringVar(&o.clusterResourceNamespace, "cluster-resource-namespace", "kube-system", "namespace of the secrets that ClusterIssuers refer to")
	fs.StringSliceVar(&o.controllers, "controllers", []string{"*"}, "controllers to run: '*' for the default ones, 'name' to add one, '-name' to remove one")
	fs.StringVar(&o.metricsAddr, "metrics-listen-address", "0.0.0.0:9402", "host:port of the Prometheus metrics server")
	fs.BoolVar(&o.enableProfiling, "enable-profiling", false, "serve net/http/pprof's handlers at --profiler-address")
	fs.StringVar(&o.profilerAddr, "profiler-address", "localhost:6060", "host:port of the profiler's server, with --enable-profiling")
	fs.BoolVar(&o.leaderElect, "leader-elect", true, "take a Lease before running the controllers")
	fs.StringVar(&o.leaderElectionNamespace, "leader-election-namespace", "kube-system", "namespace of the leader election Lease cert-manager-controller")
	fs.IntVar(&o.workers, "concurrent-workers", 5, "workers per controller")
	fs.Float32Var(&o.qps, "kube-api-qps", 20, "client QPS when API priority and fairness is off")
	fs.IntVar(&o.burst, "kube-api-burst", 50, "client burst when API priority and fairness is off")
	utilfeature.DefaultMutableFeatureGate.AddFlag(fs)
	logf.AddFlags(logging, fs)
	if err := fs.Parse(os.Args[1:]); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			os.Exit(0)
		}
		os.Exit(2)
	}
	if err := logf.ValidateAndApply(logging); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if err := run(o); err != nil {
		klog.ErrorS(err, "cert-manager controller failed")
		logf.FlushLogs()
		os.Exit(1)
	}
}

// enabled resolves --controllers as cert-manager does: "*" is the default set, "-x" removes x.
func enabled(flag []string) []string {
	var on []string
	for _, c := range flag {
		if c == "*" {
			on = append(on, defaultControllers...)
		}
	}
	for _, c := range flag {
		if c != "*" && !strings.HasPrefix(c, "-") && !slices.Contains(on, c) {
			on = append(on, c)
		}
	}
	on = slices.DeleteFunc(on, func(c string) bool { return slices.Contains(flag, "-"+c) })
	sort.Strings(on)
	return on
}

func run(o options) error {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	log := klog.Background().WithName("cert-manager").WithName("controller")
	ctx = logf.NewContext(ctx, log)

	opts := controllerpkg.ContextOptions{
		APIServerHost:      o.master,
		Kubeconfig:         o.kubeconfig,
		KubernetesAPIQPS:   o.qps,
		KubernetesAPIBurst: o.burst,
		Namespace:          o.namespace,
		IssuerOptions: controllerpkg.IssuerOptions{
			ClusterResourceNamespace:        o.clusterResourceNamespace,
			ClusterIssuerAmbientCredentials: true,
		},
		ACMEOptions: controllerpkg.ACMEOptions{
			HTTP01SolverImage:                 "quay.io/jetstack/cert-manager-acmesolver:v1.21.2",
			HTTP01SolverResourceRequestCPU:    resource.MustParse("10m"),
			HTTP01SolverResourceRequestMemory: resource.MustParse("64Mi"),
			HTTP01SolverResourceLimitsCPU:     resource.MustParse("100m"),
			HTTP01SolverResourceLimitsMemory:  resource.MustParse("64Mi"),
			ACMEHTTP01SolverRunAsNonRoot:      true,
			DNS01CheckAuthoritative:           true,
			DNS01CheckRetryPeriod:             10 * time.Second,
		},
		IngressShimOptions: controllerpkg.IngressShimOptions{
			DefaultIssuerKind:                 "Issuer",
			DefaultIssuerGroup:                "cert-manager.io",
			DefaultAutoCertificateAnnotations: []string{"kubernetes.io/tls-acme"},
		},
		CertificateOptions: controllerpkg.CertificateOptions{
			CopiedAnnotationPrefixes:                 []string{"*", "-kubectl.kubernetes.io/", "-fluxcd.io/", "-argocd.argoproj.io/"},
			CertificateRequestMinimumBackoffDuration: time.Hour,
			CertificateRequestMaximumBackoffDuration: 32 * time.Hour,
		},
		SchedulerOptions: controllerpkg.SchedulerOptions{MaxConcurrentChallenges: 60},
	}
	factory, err := controllerpkg.NewContextFactory(ctx, opts)
	if err != nil {
		return fmt.Errorf("building the controller context: %w", err)
	}
	cctx, err := factory.Build()
	if err != nil {
		return fmt.Errorf("building the controller context: %w", err)
	}

	cm := cctx.SharedInformerFactory.Certmanager().V1()
	cctx.Metrics.SetupCertificateCollector(cm.Certificates().Lister())
	cctx.Metrics.SetupIssuerCollector(cm.Issuers().Lister())
	if o.namespace == "" {
		cctx.Metrics.SetupClusterIssuerCollector(cm.ClusterIssuers().Lister())
	}
	cctx.Metrics.SetupACMECollector(cctx.SharedInformerFactory.Acme().V1().Challenges().Lister())
	ln, err := net.Listen("tcp", o.metricsAddr)
	if err != nil {
		return fmt.Errorf("listening on %s for metrics: %w", o.metricsAddr, err)
	}
	srv := cctx.Metrics.NewServer(ln)
	go func() {
		log.Info("serving metrics", "address", ln.Addr().String())
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error(err, "metrics server failed")
		}
	}()
	defer func() { _ = srv.Close() }()
	if o.enableProfiling {
		// As cert-manager's controller: pprof's handlers on a server of their own.
		mux := http.NewServeMux()
		profiling.Install(mux)
		pln, err := net.Listen("tcp", o.profilerAddr)
		if err != nil {
			return fmt.Errorf("listening on %s for the profiler: %w", o.profilerAddr, err)
		}
		psrv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		go func() {
			log.Info("serving the profiler", "address", pln.Addr().String())
			if err := psrv.Serve(pln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				log.Error(err, "profiler server failed")
			}
		}()
		defer func() { _ = psrv.Close() }()
	}

	runControllers := func(ctx context.Context) error {
		var wg sync.WaitGroup
		errs := make(chan error, 64)
		known := controllerpkg.Known()
		for _, name := range enabled(o.controllers) {
			fn, ok := known[name]
			if !ok {
				return fmt.Errorf("unknown controller %q", name)
			}
			if o.namespace != "" && name == "clusterissuers" {
				log.Info("not starting controller as cert-manager is scoped to a namespace", "controller", name)
				continue
			}
			c, err := fn(factory)
			if err != nil {
				return fmt.Errorf("constructing controller %s: %w", name, err)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				log.Info("starting controller", "controller", name)
				if err := c.Run(o.workers, ctx); err != nil {
					errs <- fmt.Errorf("controller %s: %w", name, err)
				}
			}()
		}
		// The controllers' constructors asked for their informers; start them all now.
		cctx.KubeSharedInformerFactory.Start(ctx.Done())
		cctx.SharedInformerFactory.Start(ctx.Done())
		cctx.HTTP01ResourceMetadataInformersFactory.Start(ctx.Done())
		wg.Wait()
		close(errs)
		return errors.Join(slices.Collect(func(yield func(error) bool) {
			for e := range errs {
				if !yield(e) {
					return
				}
			}
		})...)
	}

	if !o.leaderElect {
		return runControllers(ctx)
	}
	cfg, err := clientcmd.BuildConfigFromFlags(o.master, o.kubeconfig)
	if err != nil {
		return err
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	host, _ := os.Hostname()
	lock := &resourcelock.LeaseLock{
		LeaseMeta:  metav1.ObjectMeta{Namespace: o.leaderElectionNamespace, Name: "cert-manager-controller"},
		Client:     client.CoordinationV1(),
		LockConfig: resourcelock.ResourceLockConfig{Identity: fmt.Sprintf("%s-%d-external-cert-manager-controller", host, os.Getpid())},
	}
	var runErr error
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock: lock, LeaseDuration: 60 * time.Second, RenewDeadline: 40 * time.Second, RetryPeriod: 15 * time.Second,
		ReleaseOnCancel: true, Name: "cert-manager-controller",
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) { runErr = runControllers(ctx) },
			OnStoppedLeading: func() { log.Info("leader election lost or released") },
		},
	})
	return runErr
}
