package view

import (
	"encoding/json"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// QueueList is the result of `queues` (and of each frame of `top`) in -o json|yaml. Missing
// figures are null.
type QueueList struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	// Time is when the refresh of top that read the list began; absent in queues.
	Time time.Time `json:"time,omitzero"`
	// Window is "lifetime" (one sample: quantiles since process start, no rates), a duration
	// such as "5s" (two samples that far apart), either followed by " since restart" (the
	// target restarted between its samples: since the new process started), or "mixed".
	Window string `json:"window"`
	// Items are the rows, each written as a QueueItem.
	Items  []Queue       `json:"items"`
	Errors []TargetError `json:"errors,omitempty"`
	// Replicas are the workloads of which two or more replicas were read: who leads, and which
	// standby replicas were folded into the leader's rows (they have no items of their own).
	Replicas []model.ReplicaGroup `json:"replicas,omitempty"`
	// Clusters are the clusters read, when there are several (a fleet read from a Prometheus
	// server; "" stands for targets without the cluster label). Each item and error then names
	// its cluster.
	Clusters []string `json:"clusters,omitempty"`
	// Resolution, with --prometheus, is the resolution the window was judged at: "raw", or
	// "up to 5m: downsampled data may have been used" (Thanos Query's max_source_resolution;
	// Thanos does not say which data it used).
	Resolution string `json:"resolution,omitempty"`
	// ResolutionNote, when the server may have answered from downsampled data, is what the
	// text outputs say of it as the source resolution, under their header (-o json has
	// Resolution).
	ResolutionNote string `json:"-"`
}

// QueueItem is how a queue list writes one row: one workqueue of one target. Durations are in
// seconds.
type QueueItem struct {
	// Cluster is the target's cluster, in a fleet (see QueueList.Clusters).
	Cluster                  string   `json:"cluster,omitempty"`
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
	// The AtLeast flags mark a quantile only known to be its value or more (its rank lies
	// above the highest finite bucket); absent when false.
	QueueP50AtLeast bool `json:"queueP50AtLeast,omitempty"`
	QueueP99AtLeast bool `json:"queueP99AtLeast,omitempty"`
	WorkP50AtLeast  bool `json:"workP50AtLeast,omitempty"`
	WorkP99AtLeast  bool `json:"workP99AtLeast,omitempty"`
	// QueueMeanSeconds and WorkMeanSeconds are the mean of the same observations (sum/count).
	QueueMeanSeconds      *float64 `json:"queueMeanSeconds"`
	WorkMeanSeconds       *float64 `json:"workMeanSeconds"`
	UnfinishedWorkSeconds *float64 `json:"unfinishedWorkSeconds"`
	LongestRunningSeconds *float64 `json:"longestRunningSeconds"`
	ActiveWorkers         *float64 `json:"activeWorkers"`
	MaxWorkers            *float64 `json:"maxWorkers"`
	Leader                *bool    `json:"leader,omitempty"`
	Status                string   `json:"status"`
	Reason                string   `json:"reason,omitempty"`

	// DepthByPriority is the depth by the priority label of controller-runtime's priority
	// queue ("0", "-100", ...); absent on a plain queue.
	DepthByPriority map[string]*float64 `json:"depthByPriority,omitempty"`
	// QueueWait is the queue-wait service level over the refresh's window (top only: absent
	// in queues).
	QueueWait *Objective `json:"queueWait,omitempty"`
}

// QueueRanks are the text fields of a queue item that --sort-by orders by rank, not by their
// bytes: .status worst first, as the table is.
var QueueRanks = map[string]func(string) int{".status": func(s string) int { return health.Status(s).Rank() }}

// NewQueueList builds the list of stats (already sorted) and the per-target errors.
func NewQueueList(stats []health.QueueStats, errs []TargetError) QueueList {
	l := QueueList{APIVersion: APIVersion, Kind: "QueueList", Items: make([]Queue, 0, len(stats)), Errors: errs}
	for _, s := range stats {
		q := NewQueue(s, nil, nil)
		l.Items = append(l.Items, q)
		switch {
		case l.Window == "":
			l.Window = q.Window
		case l.Window != q.Window:
			l.Window = "mixed"
		}
	}
	if l.Window == "" {
		l.Window = Lifetime
	}
	return l
}

// Item is the row as the queue list writes it.
func (q Queue) Item() QueueItem {
	return QueueItem{
		Cluster: q.Cluster, Target: q.Target, Controller: q.Controller, Queue: q.Queue, Window: q.Window,
		Depth: q.Depth, AddsPerSecond: q.AddsPerSecond, RetriesPerSecond: q.RetriesPerSecond,
		CompletionsPerSecond: q.CompletionsPerSecond, ReconcileErrorsPerSecond: q.ReconcileErrorsPerSecond,
		QueueP50Seconds: q.QueueP50Seconds, QueueP99Seconds: q.QueueP99Seconds, WorkP50Seconds: q.WorkP50Seconds, WorkP99Seconds: q.WorkP99Seconds,
		QueueP50AtLeast: q.QueueP50AtLeast, QueueP99AtLeast: q.QueueP99AtLeast, WorkP50AtLeast: q.WorkP50AtLeast, WorkP99AtLeast: q.WorkP99AtLeast,
		QueueMeanSeconds: q.QueueMeanSeconds, WorkMeanSeconds: q.WorkMeanSeconds,
		UnfinishedWorkSeconds: q.UnfinishedWorkSeconds, LongestRunningSeconds: q.LongestRunningSeconds,
		ActiveWorkers: q.ActiveWorkers, MaxWorkers: q.MaxWorkers, Leader: q.Leader, Status: q.Status, Reason: q.Reason,
		DepthByPriority: q.DepthByPriority, QueueWait: q.QueueWait,
	}
}

// MarshalJSON writes the row as its QueueItem, so a queue list's -o json|yaml stays the
// schema it was.
func (q Queue) MarshalJSON() ([]byte, error) { return json.Marshal(q.Item()) }

// UnmarshalJSON reads a row back from its QueueItem; the figures a QueueItem does not hold
// stay unknown.
func (q *Queue) UnmarshalJSON(b []byte) error {
	var it QueueItem
	if err := json.Unmarshal(b, &it); err != nil {
		return err
	}
	*q = Queue{
		Cluster: it.Cluster, Target: it.Target, Controller: it.Controller, Queue: it.Queue, Window: it.Window,
		Depth: it.Depth, AddsPerSecond: it.AddsPerSecond, RetriesPerSecond: it.RetriesPerSecond,
		CompletionsPerSecond: it.CompletionsPerSecond, ReconcileErrorsPerSecond: it.ReconcileErrorsPerSecond,
		QueueP50Seconds: it.QueueP50Seconds, QueueP99Seconds: it.QueueP99Seconds, WorkP50Seconds: it.WorkP50Seconds, WorkP99Seconds: it.WorkP99Seconds,
		QueueP50AtLeast: it.QueueP50AtLeast, QueueP99AtLeast: it.QueueP99AtLeast, WorkP50AtLeast: it.WorkP50AtLeast, WorkP99AtLeast: it.WorkP99AtLeast,
		QueueMeanSeconds: it.QueueMeanSeconds, WorkMeanSeconds: it.WorkMeanSeconds,
		UnfinishedWorkSeconds: it.UnfinishedWorkSeconds, LongestRunningSeconds: it.LongestRunningSeconds,
		ActiveWorkers: it.ActiveWorkers, MaxWorkers: it.MaxWorkers, Leader: it.Leader, Status: it.Status, Reason: it.Reason,
		DepthByPriority: it.DepthByPriority, QueueWait: it.QueueWait,
	}
	return nil
}

// SetClusters names every item's and error's cluster (of maps targets to their clusters)
// when the targets span several clusters.
func (l *QueueList) SetClusters(of map[string]string, clusters []string) {
	if len(clusters) < 2 {
		return
	}
	l.Clusters = clusters
	for i := range l.Items {
		l.Items[i].Cluster = of[l.Items[i].Target]
	}
	for i := range l.Errors {
		l.Errors[i].Cluster = of[l.Errors[i].Target]
	}
}
