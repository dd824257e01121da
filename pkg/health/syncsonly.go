package health

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

// syncCounts holds cert-manager's counters by controller while a page is read.
type syncCounts struct{ calls, errors map[string]float64 }

// addSyncCount files a series of cert-manager's sync counters; false for another family.
func (s *Snapshot) addSyncCount(name, controller string, v float64) bool {
	if name != cmSyncCalls && name != cmSyncErrors {
		return false
	}
	if controller == "" {
		return true
	}
	if s.syncs == nil {
		s.syncs = &syncCounts{calls: map[string]float64{}, errors: map[string]float64{}}
	}
	if name == cmSyncCalls {
		s.syncs.calls[controller] += v
	} else {
		s.syncs.errors[controller] += v
	}
	return true
}

// fileSyncCounts makes each controller cert-manager counts syncs of a controller with its
// reconciles (successes and errors, as controller-runtime counts them) and a queue of its name
// whose own figures the page does not give, so that the failure checks judge it as they judge
// a controller-runtime controller. A controller with calls and no error series failed none.
func (s *Snapshot) fileSyncCounts() {
	if s.syncs == nil {
		return
	}
	s.SyncsOnly = CertManager
	for name, calls := range s.syncs.calls {
		errs := s.syncs.errors[name]
		c := s.controller(name)
		c.ReconcileTotal["success"] = max(calls-errs, 0)
		c.ReconcileTotal["error"] = errs
		c.ReconcileErrors = errs
		s.queue(name, name)
	}
	s.syncs = nil
}
