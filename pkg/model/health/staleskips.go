package health

// staleSkipQueues are kube-controller-manager's counters (1.36, alpha, on by default behind
// the beta gates StaleControllerConsistency<Controller>) of the syncs a controller skipped
// because its informer cache was behind the controller's own last write, by the queue whose
// syncs they are. Each is a counter by group and resource, present once a sync was skipped.
var staleSkipQueues = map[string]string{
	"replicaset_controller_stale_sync_skips_total":  "replicaset",
	"statefulset_controller_stale_sync_skips_total": "statefulset",
	"daemonset_controller_stale_sync_skips_total":   "daemonset",
	"job_controller_stale_sync_skips_total":         "job",
}

func init() {
	for name := range staleSkipQueues {
		wanted[name] = true
	}
}

// addStaleSkips files a series of a stale-sync-skips family; false for another family.
func (s *Snapshot) addStaleSkips(name string, v float64) bool {
	q, ok := staleSkipQueues[name]
	if !ok {
		return false
	}
	if s.StaleSyncSkips == nil {
		s.StaleSyncSkips = map[string]float64{}
	}
	s.StaleSyncSkips[q] += v
	return true
}
