package view

// SLI is one queue's service levels over the window: its queue-wait indicator against the
// objective, and the capacity model's headroom before the objective breaks.
type SLI struct {
	Target     string `json:"target"`
	Queue      string `json:"queue"`
	Controller string `json:"controller,omitempty"`
	// QueueWait is the share of items that waited over the objective.
	QueueWait Objective `json:"queueWait"`
	// Headroom is the capacity section's headroom for the queue; nil when it was not modelled.
	Headroom *Headroom `json:"headroom"`
	// Spec is the spec latency of the objects of the queue's controller's kind against the
	// spec-latency objective; nil when the objects of that kind were not read (no cluster,
	// or the controller's kind is not known).
	Spec *SpecObjective `json:"spec"`
}

// SpecObjective is the spec-latency indicator: the changes of the window (with those in flight
// at its start or end that had waited possibly over the objective) against the objective, and
// the exact p50 and p99 of those acted on.
type SpecObjective struct {
	Objective
	// Kind is the resource watched ("workloads.demo.ctrldiag.dev"); "" when not known.
	Kind string `json:"kind,omitempty"`
	// Changes are the spec changes seen in the window; Pending those not acted on at its end.
	Changes    int      `json:"changes"`
	Pending    int      `json:"pending"`
	P50Seconds *float64 `json:"p50Seconds"`
	// Undecided are the changes in flight at the window's start or end that had waited less
	// than the objective: not judged, since their latency lies partly outside the window.
	Undecided float64 `json:"undecided"`
}

// Objective is one indicator against its objective at a quantile: the samples of the window,
// those surely and possibly over it, and the verdict (breaks, holds, unknown, not-judged).
type Objective struct {
	ObjectiveSeconds float64  `json:"objectiveSeconds"`
	Quantile         float64  `json:"quantile"`
	Samples          *float64 `json:"samples"`
	Over             *float64 `json:"over"`
	OverAtMost       *float64 `json:"overAtMost"`
	OverShare        *float64 `json:"overShare"`
	P99Seconds       *float64 `json:"p99Seconds"`
	P99AtLeast       bool     `json:"p99AtLeast,omitempty"`
	Verdict          string   `json:"verdict"`
	// Why says why the verdict is not breaks or holds.
	Why string `json:"why,omitempty"`
}

// Headroom is how much more load the workers take before the objective breaks (see
// Capacity): Over when the measured waits already break it, whatever the model says.
type Headroom struct {
	OfferedPerSecond    *float64 `json:"offeredPerSecond"`
	MaxOfferedPerSecond *float64 `json:"maxOfferedPerSecond"`
	Ratio               *float64 `json:"ratio"`
	Over                bool     `json:"over"`
	Note                string   `json:"note,omitempty"`
}
