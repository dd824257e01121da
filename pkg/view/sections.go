package view

// Backlog is the report's section 2: one queue's depth and trend.
type Backlog struct {
	Target      string   `json:"target"`
	Queue       string   `json:"queue"`
	Depth       *float64 `json:"depth"`
	DepthBefore *float64 `json:"depthBefore"`
	// Trend is rising, falling, steady, or unknown (one sample).
	Trend string `json:"trend"`
	// DrainSeconds is depth / completions per second: the time to clear the backlog.
	DrainSeconds *float64 `json:"drainSeconds"`
	Status       string   `json:"status"`
}

// Events is the report's section 4: one queue's flow and latency.
type Events struct {
	Target               string   `json:"target"`
	Queue                string   `json:"queue"`
	AddsPerSecond        *float64 `json:"addsPerSecond"`
	CompletionsPerSecond *float64 `json:"completionsPerSecond"`
	RetriesPerSecond     *float64 `json:"retriesPerSecond"`
	QueueP50Seconds      *float64 `json:"queueP50Seconds"`
	QueueP90Seconds      *float64 `json:"queueP90Seconds"`
	QueueP99Seconds      *float64 `json:"queueP99Seconds"`
	WorkP50Seconds       *float64 `json:"workP50Seconds"`
	WorkP90Seconds       *float64 `json:"workP90Seconds"`
	WorkP99Seconds       *float64 `json:"workP99Seconds"`
	// The AtLeast flags mark a quantile only known to be its value or more (its rank lies
	// above the highest finite bucket); absent when false.
	QueueP50AtLeast bool `json:"queueP50AtLeast,omitempty"`
	QueueP90AtLeast bool `json:"queueP90AtLeast,omitempty"`
	QueueP99AtLeast bool `json:"queueP99AtLeast,omitempty"`
	WorkP50AtLeast  bool `json:"workP50AtLeast,omitempty"`
	WorkP90AtLeast  bool `json:"workP90AtLeast,omitempty"`
	WorkP99AtLeast  bool `json:"workP99AtLeast,omitempty"`
	// QueueMeanSeconds and WorkMeanSeconds are the mean of the same observations (sum/count).
	QueueMeanSeconds *float64 `json:"queueMeanSeconds"`
	WorkMeanSeconds  *float64 `json:"workMeanSeconds"`
	// Reconciles counts reconcile results (success, error, requeue, requeue_after) over the
	// window, or since start (controller-runtime only).
	Reconciles map[string]float64 `json:"reconciles,omitempty"`
	// QueueBuckets and WorkBuckets are the latency distributions over the window: how many
	// items fell in each bucket (not cumulative), for charts.
	QueueBuckets []Bucket `json:"queueBuckets,omitempty"`
	WorkBuckets  []Bucket `json:"workBuckets,omitempty"`
}

// Backlog is the row as the report's section 2 shows it.
func (q Queue) Backlog() Backlog {
	return Backlog{Target: q.Target, Queue: q.Queue, Depth: q.Depth, DepthBefore: q.DepthBefore, Trend: q.Trend,
		DrainSeconds: q.DrainSeconds, Status: q.Status}
}

// Events is the row as the report's section 4 shows it.
func (q Queue) Events() Events {
	return Events{Target: q.Target, Queue: q.Queue, AddsPerSecond: q.AddsPerSecond, CompletionsPerSecond: q.CompletionsPerSecond,
		RetriesPerSecond: q.RetriesPerSecond,
		QueueP50Seconds:  q.QueueP50Seconds, QueueP90Seconds: q.QueueP90Seconds, QueueP99Seconds: q.QueueP99Seconds,
		WorkP50Seconds: q.WorkP50Seconds, WorkP90Seconds: q.WorkP90Seconds, WorkP99Seconds: q.WorkP99Seconds,
		QueueP50AtLeast: q.QueueP50AtLeast, QueueP90AtLeast: q.QueueP90AtLeast, QueueP99AtLeast: q.QueueP99AtLeast,
		WorkP50AtLeast: q.WorkP50AtLeast, WorkP90AtLeast: q.WorkP90AtLeast, WorkP99AtLeast: q.WorkP99AtLeast,
		QueueMeanSeconds: q.QueueMeanSeconds, WorkMeanSeconds: q.WorkMeanSeconds,
		Reconciles: q.Reconciles, QueueBuckets: q.QueueBuckets, WorkBuckets: q.WorkBuckets}
}

// FromSections reads a report's sections 2 and 4 (as built, or read back from `report -o
// json`) back into rows, one per target and queue: the queues of section 4 in its order, each
// with its backlog, then those only section 2 lists, in its order. The figures neither
// section holds stay unknown.
func FromSections(backlog []Backlog, events []Events) []Queue {
	type key struct{ target, queue string }
	byKey := make(map[key]int, len(backlog))
	for i, b := range backlog {
		byKey[key{b.Target, b.Queue}] = i
	}
	out := make([]Queue, 0, len(backlog)+len(events))
	used := make(map[key]bool, len(events))
	for _, e := range events {
		q := Queue{Target: e.Target, Queue: e.Queue, Trend: "unknown", AddsPerSecond: e.AddsPerSecond,
			CompletionsPerSecond: e.CompletionsPerSecond, RetriesPerSecond: e.RetriesPerSecond,
			QueueP50Seconds: e.QueueP50Seconds, QueueP90Seconds: e.QueueP90Seconds, QueueP99Seconds: e.QueueP99Seconds,
			WorkP50Seconds: e.WorkP50Seconds, WorkP90Seconds: e.WorkP90Seconds, WorkP99Seconds: e.WorkP99Seconds,
			QueueP50AtLeast: e.QueueP50AtLeast, QueueP90AtLeast: e.QueueP90AtLeast, QueueP99AtLeast: e.QueueP99AtLeast,
			WorkP50AtLeast: e.WorkP50AtLeast, WorkP90AtLeast: e.WorkP90AtLeast, WorkP99AtLeast: e.WorkP99AtLeast,
			QueueMeanSeconds: e.QueueMeanSeconds, WorkMeanSeconds: e.WorkMeanSeconds,
			Reconciles: e.Reconciles, QueueBuckets: e.QueueBuckets, WorkBuckets: e.WorkBuckets}
		k := key{e.Target, e.Queue}
		if i, ok := byKey[k]; ok {
			q.backlog(backlog[i])
		}
		used[k] = true
		out = append(out, q)
	}
	for _, b := range backlog {
		if k := (key{b.Target, b.Queue}); !used[k] {
			used[k] = true
			q := Queue{Target: b.Target, Queue: b.Queue}
			q.backlog(b)
			out = append(out, q)
		}
	}
	return out
}

// backlog sets the figures of section 2.
func (q *Queue) backlog(b Backlog) {
	q.Depth, q.DepthBefore, q.Trend, q.DrainSeconds, q.Status = b.Depth, b.DepthBefore, b.Trend, b.DrainSeconds, b.Status
}
