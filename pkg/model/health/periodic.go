package health

import "math"

// Periodic is a controller that syncs all it manages on a period rather than working a queue
// of objects (external-dns): when it last tried and last succeeded, and what failed. Times are
// Unix seconds, 0 before the first; a value the page does not give is NaN.
type Periodic struct {
	// LastSync is the end of the last successful sync; LastAttempt the start of the last one.
	LastSync, LastAttempt float64
	// SourceErrors and RegistryErrors count the syncs that could not read what should be
	// (the sources) or what is (the registry); SoftErrors is the run of syncs in a row that
	// failed but were retried.
	SourceErrors, RegistryErrors, SoftErrors float64
}

// periodicFamilies are external-dns' controller metrics (sigs.k8s.io/external-dns/controller,
// Prometheus namespace external_dns).
const (
	edLastSync       = "external_dns_controller_last_sync_timestamp_seconds"
	edLastAttempt    = "external_dns_controller_last_reconcile_timestamp_seconds"
	edSoftErrors     = "external_dns_controller_consecutive_soft_errors"
	edSourceErrors   = "external_dns_source_errors_total"
	edRegistryErrors = "external_dns_registry_errors_total"
)

func init() {
	for _, name := range []string{edLastSync, edLastAttempt, edSoftErrors, edSourceErrors, edRegistryErrors} {
		wanted[name] = true
	}
}

// addPeriodic files a series of a periodic controller's family; false for another family.
func (s *Snapshot) addPeriodic(name string, v float64) bool {
	var field *float64
	add := sum
	p := s.Periodic
	if p == nil {
		n := math.NaN()
		p = &Periodic{LastSync: n, LastAttempt: n, SourceErrors: n, RegistryErrors: n, SoftErrors: n}
	}
	switch name {
	case edLastSync:
		field, add = &p.LastSync, maxOf
	case edLastAttempt:
		field, add = &p.LastAttempt, maxOf
	case edSoftErrors:
		field = &p.SoftErrors
	case edSourceErrors:
		field = &p.SourceErrors
	case edRegistryErrors:
		field = &p.RegistryErrors
	default:
		return false
	}
	*field = add(*field, v)
	s.Periodic = p
	return true
}
