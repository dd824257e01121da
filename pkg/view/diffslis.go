package view

// SLIChange is one queue's service levels before and after: its queue-wait and spec-latency
// verdicts and the figures behind them. Change is "changed", "appeared" or "gone", as for
// QueueChange.
type SLIChange struct {
	Controller string `json:"controller"`
	Queue      string `json:"queue"`
	Change     string `json:"change"`
	// QueueWait and Spec are the verdicts of the two objectives on each side.
	QueueWait VerdictChange `json:"queueWait"`
	Spec      VerdictChange `json:"spec"`
	// Figures are the queue wait p99, the share of waits over the objective and the spec
	// latency p99, on each side; null where a side has none.
	Figures []Figure `json:"figures"`
}

// VerdictChange is an objective's verdict (breaks, holds, unknown, not-judged) before and
// after; "" where a side does not judge it. Change is "holds -> breaks" when they differ, ""
// when they do not.
type VerdictChange struct {
	Before string `json:"before"`
	After  string `json:"after"`
	Change string `json:"change,omitempty"`
}

// KindSLIChange is one kind's spec latency and time to Ready before and after: the changes
// seen, p50 and p99 of each, and the changes still pending at the end of the window.
type KindSLIChange struct {
	Kind    string   `json:"kind"`
	Figures []Figure `json:"figures"`
}
