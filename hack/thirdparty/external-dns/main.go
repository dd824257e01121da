// Command external-dns runs external-dns, at the version pinned in go.mod, for the tests, with
// only the DNS provider they use (inmemory). external-dns' own main, controller.Execute, imports
// provider/factory and with it every provider's SDK: built from the module root it is a 162 MB
// binary that takes ~10 minutes and ~1.4 GB of module downloads on a cold cache, for code the
// tests never run. This main does what controller/execute.go does with external-dns' exported
// packages that do not reach a provider: pkg/apis/externaldns' kingpin flags and config (all of
// external-dns' flags, names and defaults), its validation, all sources via source/wrappers.Build,
// the txt, noop and crd registries, provider/inmemory, plan, and pkg/metrics' registry served with
// /healthz on --metrics-address. The controller package cannot be imported (its execute.go is what
// imports provider/factory), so its loop and metrics are repeated below as v0.22.0 has them: same
// metric names and help, same log lines, same exit (log.Fatal) on a source, registry or non-soft
// provider error. Another --provider or --registry, or --webhook-server, is refused with the list
// of what is built in. Not on /metrics: external_dns_webhook_provider_* (provider/webhook's).
package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	log "github.com/sirupsen/logrus"
	_ "k8s.io/client-go/plugin/pkg/client/auth"
	"k8s.io/klog/v2"
	crlog "sigs.k8s.io/controller-runtime/pkg/log"

	"sigs.k8s.io/external-dns/endpoint"
	"sigs.k8s.io/external-dns/pkg/apis/externaldns"
	"sigs.k8s.io/external-dns/pkg/apis/externaldns/validation"
	"sigs.k8s.io/external-dns/pkg/events"
	"sigs.k8s.io/external-dns/pkg/metrics"
	"sigs.k8s.io/external-dns/plan"
	"sigs.k8s.io/external-dns/provider"
	"sigs.k8s.io/external-dns/provider/inmemory"
	"sigs.k8s.io/external-dns/registry"
	"sigs.k8s.io/external-dns/registry/crd"
	"sigs.k8s.io/external-dns/registry/noop"
	"sigs.k8s.io/external-dns/registry/txt"
	"sigs.k8s.io/external-dns/source"
	"sigs.k8s.io/external-dns/source/annotations"
	"sigs.k8s.io/external-dns/source/wrappers"
)

// The providers and registries built in (provider/factory and registry/factory have the others).
var (
	providers  = map[string]func(context.Context, *externaldns.Config, *endpoint.DomainFilter) (provider.Provider, error){externaldns.ProviderInMemory: inmemory.New}
	registries = map[string]func(*externaldns.Config, provider.Provider) (registry.Registry, error){
		externaldns.RegistryTXT: txt.New, externaldns.RegistryNoop: noop.New, externaldns.RegistryCRD: crd.New}
)

// The controller package's metrics (controller/metrics.go), registered with pkg/metrics as there.
// (It also has a deprecated twin of each error counter, with the same name, that is never served.)
var (
	registryErrorsTotal      = must(metrics.NewCounterWithOpts(prometheus.CounterOpts{Subsystem: "registry", Name: "errors_total", Help: "Number of Registry errors."}))
	sourceErrorsTotal        = must(metrics.NewCounterWithOpts(prometheus.CounterOpts{Subsystem: "source", Name: "errors_total", Help: "Number of Source errors."}))
	sourceEndpointsTotal     = must(metrics.NewGaugeWithOpts(prometheus.GaugeOpts{Subsystem: "source", Name: "endpoints_total", Help: "Number of Endpoints in all sources"}))
	registryEndpointsTotal   = must(metrics.NewGaugeWithOpts(prometheus.GaugeOpts{Subsystem: "registry", Name: "endpoints_total", Help: "Number of Endpoints in the registry"}))
	lastSyncTimestamp        = must(metrics.NewGaugeWithOpts(prometheus.GaugeOpts{Subsystem: "controller", Name: "last_sync_timestamp_seconds", Help: "Timestamp of last successful sync with the DNS provider"}))
	lastReconcileTimestamp   = must(metrics.NewGaugeWithOpts(prometheus.GaugeOpts{Subsystem: "controller", Name: "last_reconcile_timestamp_seconds", Help: "Timestamp of last attempted sync with the DNS provider"}))
	controllerNoChangesTotal = must(metrics.NewCounterWithOpts(prometheus.CounterOpts{Subsystem: "controller", Name: "no_op_runs_total", Help: "Number of reconcile loops ending up with no changes on the DNS provider side."}))
	registryRecords          = must(metrics.NewGaugedVectorOpts(prometheus.GaugeOpts{Subsystem: "registry", Name: "records", Help: "Number of registry records partitioned by label name (vector)."}, []string{"record_type"}))
	sourceRecords            = must(metrics.NewGaugedVectorOpts(prometheus.GaugeOpts{Subsystem: "source", Name: "records", Help: "Number of source records partitioned by label name (vector)."}, []string{"record_type"}))
	verifiedRecords          = must(metrics.NewGaugedVectorOpts(prometheus.GaugeOpts{Subsystem: "controller", Name: "verified_records", Help: "Number of DNS records that exists both in source and registry (vector)."}, []string{"record_type"}))
	consecutiveSoftErrors    = must(metrics.NewGaugeWithOpts(prometheus.GaugeOpts{Subsystem: "controller", Name: "consecutive_soft_errors", Help: "Number of consecutive soft errors in reconciliation loop."}))
)

func must[M metrics.IMetric](m M) M { metrics.RegisterMetric.MustRegister(m); return m }

func main() { // controller.Execute, with its SIGTERM handling
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	ended := make(chan struct{})
	context.AfterFunc(ctx, func() { log.Info("Received SIGTERM. Terminating..."); close(ended) })
	execute(ctx)
	if stop(); ctx.Err() != nil {
		<-ended
	}
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}

// execute is controller/execute.go's execute and buildController, with the pieces above.
func execute(ctx context.Context) {
	cfg := externaldns.NewConfig()
	if err := cfg.ParseFlags(os.Args[1:]); err != nil {
		log.Fatalf("flag parsing error: %v", err)
	}
	log.Infof("config: %s", cfg)
	if err := validation.ValidateConfig(cfg); err != nil {
		log.Fatalf("config validation failed: %v", err)
	}
	newProvider, okP := providers[cfg.Provider]
	newRegistry, okR := registries[cfg.Registry]
	if !okP || !okR || cfg.WebhookServer {
		log.Fatalf("this slim build of external-dns (hack/thirdparty/external-dns) has only --provider=%s, --registry=%s, and no --webhook-server; got --provider=%s --registry=%s",
			strings.Join(slices.Sorted(maps.Keys(providers)), "|"), strings.Join(slices.Sorted(maps.Keys(registries)), "|"), cfg.Provider, cfg.Registry)
	}
	annotations.SetAnnotationPrefix(cfg.AnnotationPrefix)
	if cfg.AnnotationPrefix != annotations.DefaultAnnotationPrefix {
		log.Infof("Using custom annotation prefix: %s", cfg.AnnotationPrefix)
	}
	if cfg.LogFormat == "json" {
		log.SetFormatter(&log.JSONFormatter{})
	}
	ll, err := log.ParseLevel(cfg.LogLevel)
	check(err)
	log.SetLevel(ll)
	if cfg.DryRun {
		log.Info("running in dry-run mode. No changes to DNS records will be made.")
	}
	if log.GetLevel() < log.DebugLevel {
		defer klog.ClearLogger() // klog is noisy below debug (external-dns issue 2348)
		klog.SetLogger(logr.Discard())
	}
	crlog.SetLogger(logr.Discard())
	log.Info(externaldns.Banner())
	go serveMetrics(cfg.MetricsAddress)

	sCfg, err := source.NewSourceConfig(cfg)
	check(err)
	src, err := wrappers.Build(ctx, sCfg)
	check(err)
	domainFilter := endpoint.NewDomainFilterWithOptions(endpoint.WithDomainFilter(cfg.DomainFilter),
		endpoint.WithDomainExclude(cfg.DomainExclude), endpoint.WithRegexDomainFilter(cfg.RegexDomainFilter),
		endpoint.WithRegexDomainExclude(cfg.RegexDomainExclude))
	p, err := newProvider(ctx, cfg, domainFilter)
	check(err)
	if cfg.ProviderCacheTime > 0 {
		p = provider.NewCachedProvider(p, cfg.ProviderCacheTime)
	}
	policy, ok := plan.Policies[cfg.Policy]
	if !ok {
		log.Fatalf("unknown policy: %s", cfg.Policy)
	}
	reg, err := newRegistry(cfg, aliasNormalizer{p})
	check(err)
	c := &controller{cfg: cfg, src: src, reg: reg, policy: policy, filter: domainFilter}
	if eventsCfg := events.NewConfig(events.WithEmitEvents(cfg.EmitEvents), events.WithDryRun(cfg.DryRun)); eventsCfg.IsEnabled() {
		kubeClient, err := sCfg.ClientGenerator().KubeClient()
		check(err)
		ec, err := events.NewEventController(kubeClient.EventsV1(), eventsCfg)
		check(err)
		ec.Run(ctx)
		c.events = ec
	}
	if cfg.Once {
		check(c.runOnce(ctx))
		os.Exit(0)
	}
	if cfg.UpdateEvents {
		src.AddEventHandler(ctx, func() { c.scheduleRunOnce(time.Now()) })
	}
	c.scheduleRunOnce(time.Now())
	check(c.run(ctx))
}

// aliasNormalizer is provider/factory's AliasNormalizingMiddleware, which wraps every provider.
type aliasNormalizer struct{ provider.Provider }

func (p aliasNormalizer) AdjustEndpoints(eps []*endpoint.Endpoint) ([]*endpoint.Endpoint, error) {
	eps, err := p.Provider.AdjustEndpoints(eps)
	if err != nil {
		return nil, err
	}
	for _, ep := range eps {
		alias := ep.GetAliasProperty()
		if (ep.RecordType == endpoint.RecordTypeA && alias == endpoint.AliasA) ||
			(ep.RecordType == endpoint.RecordTypeAAAA && alias == endpoint.AliasAAAA) {
			ep.SetProviderSpecificProperty(endpoint.ProviderSpecificAlias, string(endpoint.AliasTrue))
		}
	}
	return eps, nil
}

// controller is controller.Controller (controller/controller.go, events.go), same steps.
type controller struct {
	cfg                  *externaldns.Config
	src                  source.Source
	reg                  registry.Registry
	policy               plan.Policy
	filter               *endpoint.DomainFilter
	events               events.EventEmitter
	mu                   sync.Mutex
	nextRunAt, lastRunAt time.Time
}

func (c *controller) runOnce(ctx context.Context) error {
	lastReconcileTimestamp.Gauge.SetToCurrentTime()
	c.mu.Lock()
	c.lastRunAt = time.Now()
	c.mu.Unlock()
	regRecords, err := c.reg.Records(ctx)
	if err != nil {
		registryErrorsTotal.Counter.Inc()
		return err
	}
	registryEndpointsTotal.Gauge.Set(float64(len(regRecords)))
	countRecords(registryRecords, regRecords, nil)
	ctx = context.WithValue(ctx, provider.RecordsContextKey, regRecords)
	sourceEndpoints, err := c.src.Endpoints(ctx)
	if err != nil {
		sourceErrorsTotal.Counter.Inc()
		return err
	}
	sourceEndpointsTotal.Gauge.Set(float64(len(sourceEndpoints)))
	countRecords(sourceRecords, sourceEndpoints, nil)
	inRegistry := map[[2]string]bool{}
	for _, r := range regRecords {
		inRegistry[[2]string{r.DNSName, r.RecordType}] = true
	}
	countRecords(verifiedRecords, sourceEndpoints, inRegistry)
	desired, err := c.reg.AdjustEndpoints(sourceEndpoints)
	if err != nil {
		return fmt.Errorf("adjusting endpoints: %w", err)
	}
	pl := (&plan.Plan{Policies: []plan.Policy{c.policy}, Current: regRecords, Desired: desired,
		DomainFilter:   endpoint.MatchAllDomainFilters{c.filter, c.reg.GetDomainFilter()},
		ManagedRecords: c.cfg.ManagedDNSRecordTypes, ExcludeRecords: c.cfg.ExcludeDNSRecordTypes,
		OwnerID: c.reg.OwnerID(), OldOwnerID: c.cfg.TXTOwnerOld}).Calculate()
	if pl.Changes.HasChanges() {
		if err := c.reg.ApplyChanges(ctx, pl.Changes); err != nil {
			registryErrorsTotal.Counter.Inc()
			c.emit(pl.Changes, events.RecordError)
			return err
		}
		c.emit(pl.Changes, events.RecordReady)
	} else {
		controllerNoChangesTotal.Counter.Inc()
		log.Info("All records are already up to date")
	}
	lastSyncTimestamp.Gauge.SetToCurrentTime()
	return nil
}

// countRecords sets m to the number of eps per record type (only those in `in`, if not nil).
func countRecords(m metrics.GaugeVecMetric, eps []*endpoint.Endpoint, in map[[2]string]bool) {
	m.Gauge.Reset()
	counts := map[string]float64{}
	for _, ep := range eps {
		if in == nil || in[[2]string{ep.DNSName, ep.RecordType}] {
			counts[ep.RecordType]++
		}
	}
	for recordType, n := range counts {
		m.AddWithLabels(n, recordType)
	}
}

func (c *controller) emit(ch *plan.Changes, reason events.Reason) {
	if c.events == nil {
		return
	}
	add := func(eps []*endpoint.Endpoint, a events.Action, r events.Reason) {
		for _, ep := range eps {
			c.events.Add(events.NewEventFromEndpoint(ep, a, r))
		}
	}
	add(ch.Create, events.ActionCreate, reason)
	add(ch.UpdateNew, events.ActionUpdate, reason)
	if reason != events.RecordError {
		reason = events.RecordDeleted
	}
	add(ch.Delete, events.ActionDelete, reason)
}

// scheduleRunOnce runs a sync within 5 s, but not sooner than --min-event-sync-interval after the last.
func (c *controller) scheduleRunOnce(now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	next := now.Add(5 * time.Second)
	if c.nextRunAt.Before(next) {
		next = c.nextRunAt
	}
	if floor := c.lastRunAt.Add(c.cfg.MinEventSyncInterval); floor.After(next) {
		next = floor
	}
	c.nextRunAt = next
}

func (c *controller) run(ctx context.Context) error {
	ticker := time.NewTicker(time.Second)
	defer ticker.Stop()
	softErrors := 0
	for {
		c.mu.Lock() // ShouldRunOnce
		now := time.Now()
		due := !now.Before(c.nextRunAt)
		if due {
			c.nextRunAt = now.Add(c.cfg.Interval)
		}
		c.mu.Unlock()
		if due {
			if err := c.runOnce(ctx); err == nil {
				if softErrors > 0 {
					log.Infof("Reconciliation succeeded after %d consecutive soft errors", softErrors)
				}
				softErrors = 0
				consecutiveSoftErrors.Gauge.Set(0)
			} else if errors.Is(err, provider.SoftError) {
				softErrors++
				consecutiveSoftErrors.Gauge.Set(float64(softErrors))
				log.Errorf("Failed to do run once: %v (consecutive soft errors: %d)", err, softErrors)
			} else {
				return fmt.Errorf("failed to do run once: %w", err)
			}
		}
		select {
		case <-ticker.C:
		case <-ctx.Done():
			log.Info("Terminating main controller loop")
			return nil
		}
	}
}

// serveMetrics is controller/execute.go's: /healthz and the default Prometheus registry.
func serveMetrics(address string) {
	http.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte("OK"))
	})
	log.Debugf("serving 'healthz' on '%s/healthz'", address)
	log.Debugf("serving 'metrics' on '%s/metrics'", address)
	log.Debugf("registered '%d' metrics", len(metrics.RegisterMetric.Metrics))
	http.Handle("/metrics", promhttp.Handler())
	log.Fatal(http.ListenAndServe(address, nil))
}
