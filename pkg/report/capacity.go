package report

import (
	"math"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// Capacity is one queue as the capacity model reads it (docs/capacity.md): the offered load,
// the service time and its spread, the workers, the queue wait the model predicts beside the
// measured one, and the workers that meet the target p99 wait. Only queues with at least
// minEvents completions in the window are modelled; none with one sample.
type Capacity struct {
	Target string `json:"target"`
	Queue  string `json:"queue"`
	// Loop is open (events), closed (most reconciles end in requeue_after: objects / period)
	// or saturated (the workers hold the adds down).
	Loop          string   `json:"loop"`
	AddsPerSecond *float64 `json:"addsPerSecond"`
	// OfferedPerSecond is the load the workers must serve; OfferedIsFloor says it is only a
	// lower bound (a saturated queue whose objects were not counted, or all wait).
	OfferedPerSecond   *float64 `json:"offeredPerSecond"`
	OfferedIsFloor     bool     `json:"offeredIsFloor,omitempty"`
	ServiceMeanSeconds *float64 `json:"serviceMeanSeconds"`
	ServiceP99Seconds  *float64 `json:"serviceP99Seconds"`
	// ServiceSpread is the squared coefficient of variation of the service times, as the
	// histogram's buckets show it.
	ServiceSpread *float64 `json:"serviceSpread"`
	Workers       *float64 `json:"workers"`
	// WorkersFrom says where Workers comes from: the metric
	// (controller_runtime_max_concurrent_reconciles), --workers, a flag in the container's
	// arguments ("--concurrent-replicaset-syncs in the container's arguments") or a flag's
	// documented default ("the default of --concurrent-replicaset-syncs").
	WorkersFrom string `json:"workersFrom,omitempty"`
	// Utilisation is offered load × mean service time / workers; at 1 or more the wait has no
	// bound and the predicted waits are null.
	Utilisation              *float64 `json:"utilisation"`
	PredictedWaitMeanSeconds *float64 `json:"predictedWaitMeanSeconds"`
	PredictedWaitP99Seconds  *float64 `json:"predictedWaitP99Seconds"`
	MeasuredWaitMeanSeconds  *float64 `json:"measuredWaitMeanSeconds"`
	MeasuredWaitP99Seconds   *float64 `json:"measuredWaitP99Seconds"`
	TargetWaitP99Seconds     float64  `json:"targetWaitP99Seconds"`
	// WorkersNeeded is the fewest workers whose predicted p99 wait meets the target (a floor
	// when OfferedIsFloor); null when unknown.
	WorkersNeeded *int `json:"workersNeeded"`
	// WorkersHelp is false when something else holds the queue (Limits): more workers would
	// wait on it.
	WorkersHelp bool     `json:"workersHelp"`
	Limits      []string `json:"limits,omitempty"`
	// Notes say how the load was read.
	Notes []string `json:"notes,omitempty"`
}

// capacityRows models the queues of one target.
func capacityRows(ft findings.Target, th findings.Thresholds) []Capacity {
	var out []Capacity
	for _, qc := range findings.Capacity(ft, th) {
		in, e := qc.In, qc.Estimate
		row := Capacity{Target: qc.Target, Queue: qc.Queue, Loop: string(e.Loop), AddsPerSecond: view.Num(in.Adds),
			OfferedPerSecond: view.Num(e.Offered), OfferedIsFloor: e.LowerBound, ServiceMeanSeconds: view.Num(in.ServiceMean),
			ServiceP99Seconds: view.Num(in.ServiceP99), ServiceSpread: view.Num(in.ServiceSpread), Workers: view.Num(in.Workers),
			WorkersFrom: in.WorkersFrom, Utilisation: view.Num(e.Utilisation), PredictedWaitMeanSeconds: view.Num(e.Predicted.Mean),
			PredictedWaitP99Seconds: view.Num(e.Predicted.P99), MeasuredWaitMeanSeconds: view.Num(in.WaitMean),
			MeasuredWaitP99Seconds: view.Num(in.WaitP99), TargetWaitP99Seconds: th.TargetQueueWait.Seconds(),
			WorkersHelp: e.Helps, Limits: in.Limits, Notes: e.Notes}
		if math.IsNaN(in.Workers) {
			row.WorkersFrom = ""
		}
		if e.WorkersNeeded > 0 {
			n := e.WorkersNeeded
			row.WorkersNeeded = &n
		}
		out = append(out, row)
	}
	return out
}
