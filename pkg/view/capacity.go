package view

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
	// MaxOfferedPerSecond is the most load the present workers take while the predicted p99
	// wait meets the target; null when the workers are unknown.
	MaxOfferedPerSecond *float64 `json:"maxOfferedPerSecond"`
	// Headroom is MaxOfferedPerSecond / OfferedPerSecond − 1: 1.01 takes 101 % more load, 0 or
	// less is already over (so is a queue whose measured waits break the objective, whatever
	// the model says: the note then says the model disagrees); null when no load is offered or
	// unknown. An upper bound when OfferedIsFloor.
	Headroom     *float64 `json:"headroom"`
	HeadroomNote string   `json:"headroomNote,omitempty"`
	// MeasuredOver: the queue's measured waits break the queue-wait objective (queue-wait-slo),
	// so the headroom shows as "already over" whatever the model says.
	MeasuredOver bool `json:"measuredOver,omitempty"`
	// WorkersHelp is false when something else holds the queue (Limits): more workers would
	// wait on it.
	WorkersHelp bool     `json:"workersHelp"`
	Limits      []string `json:"limits,omitempty"`
	// Notes say how the load was read.
	Notes []string `json:"notes,omitempty"`
}
