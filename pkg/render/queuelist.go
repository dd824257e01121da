package render

import (
	"math"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/replicas"
)

// APIVersion is the schema version of the structured outputs.
const APIVersion = "ctrldiag.dev/v1alpha1"

// Lifetime is the window of figures computed from a single sample.
const Lifetime = "lifetime"

// QueueList is the result of `queues` in -o json|yaml. Missing figures are null.
type QueueList struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	// Window is "lifetime" (one sample: quantiles since process start, no rates), a duration
	// such as "5s" (two samples that far apart), or "mixed".
	Window string        `json:"window"`
	Items  []QueueItem   `json:"items"`
	Errors []TargetError `json:"errors,omitempty"`
	// Replicas are the workloads of which two or more replicas were read: who leads, and which
	// standby replicas were folded into the leader's rows (they have no items of their own).
	Replicas []replicas.Group `json:"replicas,omitempty"`
}

// QueueItem is one workqueue of one target. Durations are in seconds.
type QueueItem struct {
	Target                   string   `json:"target"`
	Controller               string   `json:"controller"`
	Queue                    string   `json:"queue"`
	Window                   string   `json:"window"`
	Depth                    *float64 `json:"depth"`
	AddsPerSecond            *float64 `json:"addsPerSecond"`
	RetriesPerSecond         *float64 `json:"retriesPerSecond"`
	CompletionsPerSecond     *float64 `json:"completionsPerSecond"`
	ReconcileErrorsPerSecond *float64 `json:"reconcileErrorsPerSecond"`
	QueueP50Seconds          *float64 `json:"queueP50Seconds"`
	QueueP99Seconds          *float64 `json:"queueP99Seconds"`
	WorkP50Seconds           *float64 `json:"workP50Seconds"`
	WorkP99Seconds           *float64 `json:"workP99Seconds"`
	UnfinishedWorkSeconds    *float64 `json:"unfinishedWorkSeconds"`
	LongestRunningSeconds    *float64 `json:"longestRunningSeconds"`
	ActiveWorkers            *float64 `json:"activeWorkers"`
	MaxWorkers               *float64 `json:"maxWorkers"`
	Leader                   *bool    `json:"leader,omitempty"`
	Status                   string   `json:"status"`
	Reason                   string   `json:"reason,omitempty"`
}

// TargetError says why a target gave no (or only partial) figures.
type TargetError struct {
	Target string `json:"target"`
	Error  string `json:"error"`
}

// NewQueueList builds the view of stats (already sorted) and the per-target errors.
func NewQueueList(stats []health.QueueStats, errs []TargetError) QueueList {
	l := QueueList{APIVersion: APIVersion, Kind: "QueueList", Items: []QueueItem{}, Errors: errs}
	for _, s := range stats {
		l.Items = append(l.Items, item(s))
		switch w := window(s.Window); {
		case l.Window == "":
			l.Window = w
		case l.Window != w:
			l.Window = "mixed"
		}
	}
	if l.Window == "" {
		l.Window = Lifetime
	}
	return l
}

func item(s health.QueueStats) QueueItem {
	it := QueueItem{
		Target: s.Target, Controller: s.Controller, Queue: s.Queue, Window: window(s.Window),
		Depth: num(s.Depth), AddsPerSecond: num(s.AddsPerSecond), RetriesPerSecond: num(s.RetriesPerSecond),
		CompletionsPerSecond: num(s.CompletionsPerSecond), ReconcileErrorsPerSecond: num(s.ReconcileErrorsPerSecond),
		QueueP50Seconds: num(s.QueueP50), QueueP99Seconds: num(s.QueueP99),
		WorkP50Seconds: num(s.WorkP50), WorkP99Seconds: num(s.WorkP99),
		UnfinishedWorkSeconds: num(s.Unfinished), LongestRunningSeconds: num(s.Longest),
		ActiveWorkers: num(s.ActiveWorkers), MaxWorkers: num(s.MaxWorkers),
		Status: string(s.Status), Reason: s.Reason,
	}
	if !math.IsNaN(s.Leader) {
		leader := s.Leader == 1
		it.Leader = &leader
	}
	return it
}

// window names a sampling window: "lifetime" or a duration rounded to 100 ms.
func window(d time.Duration) string {
	if d <= 0 {
		return Lifetime
	}
	return d.Round(100 * time.Millisecond).String()
}

// num is v, or nil when v is NaN or infinite (JSON has no such numbers).
func num(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}
