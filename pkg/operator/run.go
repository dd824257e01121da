package operator

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"
	"sigs.k8s.io/controller-runtime/pkg/metrics/filters"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/api/v1alpha1"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/controller"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/informers"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/install"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/scenario"
)

// The client for leader election, the CRD check and the scenario driver is never the
// throttled one: losing the lease or slowing the load would change the scenario.
const (
	helperQPS   = 50
	helperBurst = 100
)

// Run runs the operator against restCfg until ctx is cancelled, then stops taking work,
// lets in-flight reconciles finish (stuck ones return on the cancelled context) and returns
// nil. It returns an error when the operator cannot start or fails while running.
func Run(ctx context.Context, restCfg *rest.Config, cfg Config) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	logger := log.FromContext(ctx)
	var sc scenario.Scenario
	if cfg.Scenario != "" {
		sc, _ = scenario.Get(cfg.Scenario)
	}
	scheme, err := newScheme()
	if err != nil {
		return err
	}
	restMetrics := []ctrlmetrics.RESTClientMetric{ctrlmetrics.MetricRequestLatency, ctrlmetrics.MetricRequestRetry}
	if !sc.Client.NoRateLimiterMetric {
		restMetrics = append(restMetrics, ctrlmetrics.MetricRateLimiterLatency)
	}
	ctrlmetrics.RegisterRESTClientMetrics(restMetrics...)

	helperCfg := rest.CopyConfig(restCfg)
	helperCfg.QPS, helperCfg.Burst = helperQPS, helperBurst
	helper, err := client.New(helperCfg, client.Options{Scheme: scheme})
	if err != nil {
		return fmt.Errorf("create API client: %w", err)
	}
	if cfg.InstallCRD {
		installed, err := install.EnsureCRD(ctx, helper)
		if err != nil {
			return err
		}
		if installed {
			logger.Info("installed CRD", "name", install.CRDName)
		}
	}

	if fc := sc.FlowControl; fc != nil {
		cleanup, err := setUpFlowControl(ctx, helper, *fc, cfg.Namespace)
		if err != nil {
			return fmt.Errorf("scenario %s: %w", sc.Name, err)
		}
		defer cleanup()
	}

	var hookServer webhook.Server
	if wh := sc.Webhook; wh != nil {
		srv, ca, removeCerts, err := slowWebhookServer(cfg.WebhookBindAddress, wh.Delay)
		if err != nil {
			return fmt.Errorf("scenario %s: %w", sc.Name, err)
		}
		defer removeCerts()
		unregister, err := registerWebhook(ctx, helper, webhookConfiguration(*wh, cfg.Namespace, cfg.WebhookBindAddress, ca))
		if err != nil {
			return fmt.Errorf("scenario %s: %w", sc.Name, err)
		}
		defer unregister()
		hookServer = srv
	}

	if sc.Initial > 0 {
		// Before the manager starts, so that these objects come in its initial list.
		d := &scenario.Driver{Client: helper, Namespace: cfg.Namespace, Scenario: sc}
		if err := d.Prepare(ctx); err != nil {
			return fmt.Errorf("prepare scenario %s: %w", sc.Name, err)
		}
	}
	name := cfg.ControllerName
	if name == "" {
		name = controller.DefaultName
	}
	named, err := informers.NewNamed(name, scheme, nil)
	if err != nil {
		return err
	}
	defer named.Release()

	opts := managerOptions(cfg, sc, scheme, named, helperCfg)
	opts.WebhookServer = hookServer
	mgr, err := ctrl.NewManager(operatorRESTConfig(restCfg, cfg, sc), opts)
	if err != nil {
		return fmt.Errorf("create controller manager: %w", err)
	}
	if hookServer != nil {
		// The manager runs its webhook server once asked for it.
		_ = mgr.GetWebhookServer()
	}
	if err := controller.Setup(mgr, &controller.Reconciler{Client: mgr.GetClient()},
		controller.Options{Name: name, Workers: workers(cfg, sc), SkipNameValidation: cfg.SkipNameValidation,
			Warmup: cfg.Warmup || sc.Warmup}); err != nil {
		return err
	}
	if sc.ConfigMaps != nil {
		if err := controller.SetupSettings(mgr, &controller.SettingsReconciler{Client: mgr.GetClient()}, cfg.SkipNameValidation); err != nil {
			return err
		}
	}
	if err := addProbes(mgr); err != nil {
		return err
	}
	if err := addSlowIndex(ctx, mgr, sc.Cache.Index); err != nil {
		return err
	}
	if cfg.Scenario != "" {
		d := &scenario.Driver{Client: helper, Namespace: cfg.Namespace, Scenario: sc}
		if err := mgr.Add(manager.RunnableFunc(d.Run)); err != nil {
			return fmt.Errorf("add scenario %s: %w", sc.Name, err)
		}
	}
	logger.Info("starting reference operator", "namespace", cfg.Namespace, "allNamespaces", cfg.WatchAllNamespaces, "controller", name,
		"workers", workers(cfg, sc), "scenario", cfg.Scenario, "metrics", cfg.MetricsBindAddress,
		"metricsSecure", cfg.MetricsSecure, "leaderElect", cfg.LeaderElect, "warmup", cfg.Warmup || sc.Warmup)
	if err := mgr.Start(ctx); err != nil {
		return fmt.Errorf("operator stopped: %w", err)
	}
	logger.Info("reference operator stopped")
	return nil
}

func newScheme() (*runtime.Scheme, error) {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, v1alpha1.AddToScheme, apiextensionsv1.AddToScheme} {
		if err := add(s); err != nil {
			return nil, fmt.Errorf("build scheme: %w", err)
		}
	}
	return s, nil
}

// operatorRESTConfig is the manager's client configuration: --qps/--burst, or the
// scenario's limits when it has some and the user did not set them (QPS < 0: none).
func operatorRESTConfig(restCfg *rest.Config, cfg Config, sc scenario.Scenario) *rest.Config {
	c := rest.CopyConfig(restCfg)
	c.QPS, c.Burst = cfg.QPS, cfg.Burst
	if sc.Client.QPS != 0 && !cfg.ClientLimitsSet {
		c.QPS, c.Burst = sc.Client.QPS, sc.Client.Burst
	}
	c.UserAgent = "kubectl-ctrldiag-operator"
	return c
}

// workers is --workers, or the scenario's number when it has one and the user did not set it.
func workers(cfg Config, sc scenario.Scenario) int {
	if sc.Workers > 0 && !cfg.WorkersSet {
		return sc.Workers
	}
	return cfg.Workers
}

func managerOptions(cfg Config, sc scenario.Scenario, scheme *runtime.Scheme, named *informers.Named, helperCfg *rest.Config) ctrl.Options {
	cacheOpts := cache.Options{
		DefaultNamespaces: map[string]cache.Config{cfg.Namespace: {}},
		NewInformer:       named.NewInformer,
	}
	if cfg.WatchAllNamespaces {
		cacheOpts.DefaultNamespaces = nil // every namespace
	}
	if sel, err := labels.Parse(cfg.WorkloadSelector); err == nil && !sel.Empty() {
		cacheOpts.ByObject = map[client.Object]cache.ByObject{&v1alpha1.Workload{}: {Label: sel}}
	}
	if d := sc.Cache.Transform; d > 0 {
		cacheOpts.DefaultTransform = func(obj any) (any, error) {
			time.Sleep(d) // the stale scenario: a slow transform holds up the reflector
			return obj, nil
		}
	}
	grace := cfg.GracefulShutdown
	skip := cfg.SkipNameValidation
	return ctrl.Options{
		Scheme:                        scheme,
		Cache:                         cacheOpts,
		Metrics:                       metricsOptions(cfg),
		HealthProbeBindAddress:        cfg.HealthProbeAddress,
		PprofBindAddress:              cfg.PprofBindAddress,
		LeaderElection:                cfg.LeaderElect,
		LeaderElectionID:              cfg.LeaderElectionID,
		LeaderElectionNamespace:       cfg.Namespace,
		LeaderElectionReleaseOnCancel: true,
		LeaderElectionConfig:          helperCfg,
		GracefulShutdownTimeout:       &grace,
		Controller:                    config.Controller{SkipNameValidation: &skip},
	}
}

// metricsOptions follows the kubebuilder v4 scaffold: plain HTTP, or HTTPS guarded by
// TokenReview + SubjectAccessReview, with certificates from a directory or self-signed,
// and HTTP/2 off unless asked for.
func metricsOptions(cfg Config) metricsserver.Options {
	o := metricsserver.Options{BindAddress: cfg.MetricsBindAddress, SecureServing: cfg.MetricsSecure}
	if !cfg.EnableHTTP2 {
		o.TLSOpts = append(o.TLSOpts, func(c *tls.Config) { c.NextProtos = []string{"http/1.1"} })
	}
	if cfg.MetricsSecure {
		o.FilterProvider = filters.WithAuthenticationAndAuthorization
	}
	if cfg.MetricsCertDir != "" {
		o.CertDir, o.CertName, o.KeyName = cfg.MetricsCertDir, "tls.crt", "tls.key"
	}
	return o
}

// addProbes serves /healthz (the process answers) and /readyz (informer caches synced).
func addProbes(mgr ctrl.Manager) error {
	if err := mgr.AddHealthzCheck("ping", healthz.Ping); err != nil {
		return fmt.Errorf("add health check: %w", err)
	}
	err := mgr.AddReadyzCheck("informers-synced", func(req *http.Request) error {
		ctx, cancel := context.WithTimeout(req.Context(), 100*time.Millisecond)
		defer cancel()
		if !mgr.GetCache().WaitForCacheSync(ctx) {
			return errors.New("informer caches have not synced yet")
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("add readiness check: %w", err)
	}
	return nil
}

// addSlowIndex registers an index whose function sleeps d for each Workload: the informer
// runs it when it pops an event and updates its store, so events queue up behind it.
func addSlowIndex(ctx context.Context, mgr ctrl.Manager, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	err := mgr.GetFieldIndexer().IndexField(ctx, &v1alpha1.Workload{}, "ctrldiag.slowIndex", func(client.Object) []string {
		time.Sleep(d)
		return nil
	})
	if err != nil {
		return fmt.Errorf("add slow index of the stale scenario: %w", err)
	}
	return nil
}
