package health

// Status is the verdict on one queue. The order of the constants is the order of severity,
// worst first, and the order tables sort by.
type Status string

// Statuses, worst first. docs/guide/queues.md and `explain status` document them.
const (
	// StatusError: the target could not be scraped or parsed.
	StatusError Status = "ERROR"
	// The statuses from STUCK to RETRYING are set by the findings (pkg/judge/findings), from the
	// queue's own findings, so that the table and the findings always agree.

	// StatusStuck: a stuck-worker finding.
	StatusStuck Status = "STUCK"
	// StatusFailing: a retry-storm, persistent-failures or lifetime-failures finding on failing
	// reconciles.
	StatusFailing Status = "FAILING"
	// StatusBacklog: a backlog-growing or backlog-high finding.
	StatusBacklog Status = "BACKLOG"
	// StatusSaturated: the workers cannot keep up: a workers-saturated, priority-starvation or
	// under-provisioned finding.
	StatusSaturated Status = "SATURATED"
	// StatusSlow: each item takes long although workers are free: a slow-reconcile finding.
	StatusSlow Status = "SLOW"
	// StatusRetrying: a retry-storm finding on a queue without reconcile metrics, or a hot loop.
	StatusRetrying Status = "RETRYING"
	// StatusGone: the queue was in the first sample but not in the second (restart, lost
	// leadership).
	StatusGone Status = "GONE"
	// StatusOK: none of the above.
	StatusOK Status = "OK"
	// StatusStandby: not a queue but a row for the standby replicas of a workload, folded into
	// the leader's rows (pkg/model); it sorts last.
	StatusStandby Status = "STANDBY"
)

var severity = map[Status]int{
	StatusError: 0, StatusStuck: 1, StatusFailing: 2, StatusBacklog: 3, StatusSaturated: 4, StatusSlow: 5,
	StatusRetrying: 6, StatusGone: 7, StatusOK: 8, StatusStandby: 9,
}

// Rank orders statuses worst first (lower is worse).
func (s Status) Rank() int {
	if r, ok := severity[s]; ok {
		return r
	}
	return len(severity)
}
