package operator

import (
	"errors"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/labels"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/scenario"
)

// Config is the validated configuration of one operator run.
type Config struct {
	// Namespace holds the operator's Lease and its scenario's objects, and is the one it
	// watches unless WatchAllNamespaces.
	Namespace string
	// WatchAllNamespaces reconciles Workloads in every namespace (its RBAC must allow it).
	WatchAllNamespaces bool
	// WorkloadSelector, a label selector, limits the Workloads reconciled to those it
	// matches ("" = all); a scenario's own Workloads carry no labels.
	WorkloadSelector   string
	MetricsBindAddress string // "0" disables the metrics server
	MetricsSecure      bool
	MetricsCertDir     string // tls.crt and tls.key; empty = self-signed certificate
	HealthProbeAddress string // "0" disables the probes
	PprofBindAddress   string // net/http/pprof (controller-runtime's PprofBindAddress); "" or "0" = off
	LeaderElect        bool
	LeaderElectionID   string
	Workers            int
	Scenario           string // "" = no load
	QPS                float32
	Burst              int
	ClientLimitsSet    bool // --qps or --burst given: a scenario does not override them
	WorkersSet         bool // --workers given: a scenario does not override it
	GracefulShutdown   time.Duration
	InstallCRD         bool
	ControllerName     string
	SkipNameValidation bool // several runs in one process (tests)
	EnableHTTP2        bool
	// Warmup starts the controller's watches while the replica waits for the lead
	// (controller-runtime warm replicas); a scenario may ask for it too.
	Warmup bool
	// WebhookBindAddress is HOST:PORT of the admission webhook a scenario serves; the API
	// server calls it at that address, so HOST must be one it reaches ("" = none).
	WebhookBindAddress string
}

// DefaultConfig returns the defaults of `operator run`.
func DefaultConfig() Config {
	return Config{
		MetricsBindAddress: ":8080",
		HealthProbeAddress: ":8081",
		LeaderElect:        true,
		LeaderElectionID:   "ctrldiag-demo.demo.ctrldiag.dev",
		Workers:            2,
		QPS:                20,
		Burst:              30,
		GracefulShutdown:   30 * time.Second,
		InstallCRD:         true,
	}
}

// Validate checks the configuration and says which value is wrong.
func (c Config) Validate() error {
	var errs []error
	if c.Namespace == "" {
		errs = append(errs, errors.New("no namespace: pass -n NAMESPACE"))
	}
	if c.Workers < 1 {
		errs = append(errs, fmt.Errorf("--workers must be at least 1, got %d", c.Workers))
	}
	if c.QPS <= 0 || c.Burst < 1 {
		errs = append(errs, fmt.Errorf("--qps must be > 0 and --burst >= 1, got %g and %d", c.QPS, c.Burst))
	}
	if c.Scenario != "" {
		sc, err := scenario.Get(c.Scenario)
		switch {
		case err != nil:
			errs = append(errs, err)
		case sc.Webhook != nil && c.WebhookBindAddress == "":
			errs = append(errs, fmt.Errorf("scenario %s serves an admission webhook: pass --webhook-bind-address HOST:PORT with a HOST the API server reaches (e.g. the pod's IP)", c.Scenario))
		}
	}
	if c.WebhookBindAddress != "" {
		if err := checkWebhookAddress(c.WebhookBindAddress); err != nil {
			errs = append(errs, err)
		}
	}
	if _, err := labels.Parse(c.WorkloadSelector); err != nil {
		errs = append(errs, fmt.Errorf("--workload-selector %q is not a label selector: %v", c.WorkloadSelector, err))
	}
	if c.GracefulShutdown < 0 {
		errs = append(errs, errors.New("graceful shutdown timeout must not be negative"))
	}
	return errors.Join(errs...)
}
