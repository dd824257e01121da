package health

import dto "github.com/prometheus/client_model/go"

// cert-manager counts the items each of its controllers synced, and those that failed, but
// registers no workqueue metrics: its page has no depth, waits or workers
// (github.com/cert-manager/cert-manager/pkg/controller, pkg/metrics). Both counters are by
// controller; the error counter appears with the first error.
const (
	cmSyncCalls  = "certmanager_controller_sync_call_count"
	cmSyncErrors = "certmanager_controller_sync_error_count"
)

// CertManager is the value of Snapshot.SyncsOnly for cert-manager's page.
const CertManager = "cert-manager"

func init() {
	wanted[cmSyncCalls] = true
	wanted[cmSyncErrors] = true
}

// addSyncCounts makes each controller cert-manager counts syncs of (the families calls and
// errors) a controller with its reconciles (successes and errors, as controller-runtime counts
// them) and a queue of its name whose own figures the page does not give, so that the failure
// checks judge it as they judge a controller-runtime controller. A controller with calls and
// no error series failed none.
func (s *Snapshot) addSyncCounts(calls, errors *dto.MetricFamily) {
	byController := func(f *dto.MetricFamily) map[string]float64 {
		out := map[string]float64{}
		for _, m := range f.GetMetric() {
			if name := seriesLabels(m.GetLabel()).get("controller"); name != "" {
				out[name] += value(m)
			}
		}
		return out
	}
	errs := byController(errors)
	for name, n := range byController(calls) {
		s.SyncsOnly = CertManager
		c := s.controller(name)
		c.ReconcileTotal["success"] = max(n-errs[name], 0)
		c.ReconcileTotal["error"] = errs[name]
		c.ReconcileErrors = errs[name]
		s.queue(name, name)
	}
}
