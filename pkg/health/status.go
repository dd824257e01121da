package health

import "time"

// Status is the verdict on one queue. The order of the constants is the order of severity,
// worst first, and the order tables sort by.
type Status string

// Statuses, worst first. README and `queues --help` document them.
const (
	// StatusError: the target could not be scraped or parsed.
	StatusError Status = "ERROR"
	// StatusStuck: an item has been processed for longer than Thresholds.StuckAfter, or over the
	// window no item finished while items waited and the oldest in-flight item is older than
	// the window.
	StatusStuck Status = "STUCK"
	// StatusFailing: reconcile errors are more than Thresholds.ErrorRatio of reconciles.
	StatusFailing Status = "FAILING"
	// StatusBacklog: depth is at least Thresholds.BacklogDepth, or it rose over the window to at
	// least Thresholds.RisingDepth.
	StatusBacklog Status = "BACKLOG"
	// StatusSlow: queue p99 is at least Thresholds.SlowQueue (items wait for a worker), or work
	// p99 is at least Thresholds.SlowWork.
	StatusSlow Status = "SLOW"
	// StatusRetrying: retries are at least Thresholds.RetryRatio of adds (retries count every
	// rate-limited or delayed requeue, not only errors).
	StatusRetrying Status = "RETRYING"
	// StatusGone: the queue was in the first sample but not in the second (restart, lost
	// leadership).
	StatusGone Status = "GONE"
	// StatusOK: none of the above.
	StatusOK Status = "OK"
	// StatusStandby: not a queue but a row for the standby replicas of a workload, folded into
	// the leader's rows (pkg/replicas); it sorts last.
	StatusStandby Status = "STANDBY"
)

var severity = map[Status]int{
	StatusError: 0, StatusStuck: 1, StatusFailing: 2, StatusBacklog: 3, StatusSlow: 4,
	StatusRetrying: 5, StatusGone: 6, StatusOK: 7, StatusStandby: 8,
}

// Rank orders statuses worst first (lower is worse).
func (s Status) Rank() int {
	if r, ok := severity[s]; ok {
		return r
	}
	return len(severity)
}

// Thresholds decide the status of a queue. DefaultThresholds starts from public alerting
// practice (see reference/metrics.md).
type Thresholds struct {
	StuckAfter   time.Duration
	ErrorRatio   float64
	BacklogDepth float64
	RisingDepth  float64
	SlowQueue    time.Duration
	SlowWork     time.Duration
	RetryRatio   float64
	// MinEvents is how many adds (or reconciles) a ratio needs before it counts.
	MinEvents float64
}

// DefaultThresholds are the thresholds `queues` uses.
func DefaultThresholds() Thresholds {
	return Thresholds{
		StuckAfter:   time.Minute,
		ErrorRatio:   0.10,
		BacklogDepth: 100,
		RisingDepth:  10,
		SlowQueue:    time.Second,
		SlowWork:     10 * time.Second,
		RetryRatio:   0.5,
		MinEvents:    10,
	}
}
