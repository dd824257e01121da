package engine

import (
	"math"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/replicas"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/report"
)

// QueueList is the result of `queues` in -o json|yaml. Missing figures are null.
type QueueList struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	// Window is "lifetime" (one sample: quantiles since process start, no rates), a duration
	// such as "5s" (two samples that far apart), either followed by " since restart" (the
	// target restarted between its samples: since the new process started), or "mixed".
	Window string               `json:"window"`
	Items  []QueueItem          `json:"items"`
	Errors []report.TargetError `json:"errors,omitempty"`
	// Replicas are the workloads of which two or more replicas were read: who leads, and which
	// standby replicas were folded into the leader's rows (they have no items of their own).
	Replicas []replicas.Group `json:"replicas,omitempty"`
	// Clusters are the clusters read, when there are several (a fleet read from a Prometheus
	// server; "" stands for targets without the cluster label). Each item and error then names
	// its cluster.
	Clusters []string `json:"clusters,omitempty"`
}

// QueueItem is one workqueue of one target. Durations are in seconds.
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
}

// NewQueueList builds the view of stats (already sorted) and the per-target errors.
func NewQueueList(stats []health.QueueStats, errs []report.TargetError) QueueList {
	l := QueueList{APIVersion: report.APIVersion, Kind: "QueueList", Items: []QueueItem{}, Errors: errs}
	for _, s := range stats {
		l.Items = append(l.Items, item(s))
		switch w := report.QueueWindow(s); {
		case l.Window == "":
			l.Window = w
		case l.Window != w:
			l.Window = "mixed"
		}
	}
	if l.Window == "" {
		l.Window = report.Lifetime
	}
	return l
}

func item(s health.QueueStats) QueueItem {
	it := QueueItem{
		Target: s.Target, Controller: s.Controller, Queue: s.Queue, Window: report.QueueWindow(s),
		Depth: report.Num(s.Depth), AddsPerSecond: report.Num(s.AddsPerSecond), RetriesPerSecond: report.Num(s.RetriesPerSecond),
		CompletionsPerSecond: report.Num(s.CompletionsPerSecond), ReconcileErrorsPerSecond: report.Num(s.ReconcileErrorsPerSecond),
		QueueP50Seconds: report.Num(s.QueueP50), QueueP99Seconds: report.Num(s.QueueP99),
		WorkP50Seconds: report.Num(s.WorkP50), WorkP99Seconds: report.Num(s.WorkP99),
		QueueP50AtLeast: s.QueueP50AtLeast, QueueP99AtLeast: s.QueueP99AtLeast, WorkP50AtLeast: s.WorkP50AtLeast, WorkP99AtLeast: s.WorkP99AtLeast,
		QueueMeanSeconds: report.Num(s.QueueMean), WorkMeanSeconds: report.Num(s.WorkMean),
		UnfinishedWorkSeconds: report.Num(s.Unfinished), LongestRunningSeconds: report.Num(s.Longest),
		ActiveWorkers: report.Num(s.ActiveWorkers), MaxWorkers: report.Num(s.MaxWorkers),
		Status: string(s.Status), Reason: s.Reason,
	}
	if len(s.DepthByPriority) > 0 {
		it.DepthByPriority = make(map[string]*float64, len(s.DepthByPriority))
		for p, v := range s.DepthByPriority {
			it.DepthByPriority[p] = report.Num(v)
		}
	}
	if !math.IsNaN(s.Leader) {
		leader := s.Leader == 1
		it.Leader = &leader
	}
	return it
}

// setClusters names every item's and error's cluster when the targets span several clusters.
func (l *QueueList) setClusters(read []model.Target) {
	of, clusters := report.Clusters(read)
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
