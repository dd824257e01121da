package findings

import (
	"reflect"
	"strings"
	"time"
)

// Thresholds decide when a rule fires. Defaults start from public alerting practice
// (kubernetes-mixin, prometheus-operator mixin, operator rule sets; see docs/guide/checks.md) and were checked
// against the reference operator's scenarios and an idle kube-controller-manager and API server.
// Every field can be set in a config file (--thresholds FILE, YAML with these json names) or by
// --threshold name=value.
type Thresholds struct {
	// MinEvents is how many events (adds, reconciles, requests) a ratio needs to count.
	MinEvents float64 `json:"minEvents"`
	// StuckAfter: an item in a worker for this long means a stuck worker.
	StuckAfter Duration `json:"stuckAfter"`
	// ErrorRatio: reconcile errors / reconciles above this is a retry storm (prometheus-operator
	// mixin: 10 %).
	ErrorRatio float64 `json:"errorRatio"`
	// RetryStormRate: failing reconciles a second at or above this (with ErrorRatio exceeded)
	// are a retry storm, a load on the API server; fewer are persistent failures of some
	// objects backing off.
	RetryStormRate float64 `json:"retryStormRate"`
	// PersistentFailures: without the objects' status, this many failing reconciles in the
	// window, all of them or over ErrorRatio, are persistent failures; fewer are context (info).
	PersistentFailures float64 `json:"persistentFailures"`
	// RetryRatio: retries / adds at or above this, on a queue without reconcile metrics, is a
	// retry storm.
	RetryRatio float64 `json:"retryRatio"`
	// RetriesPerSecond: on a queue without reconcile metrics, below this rate retries are not a
	// storm (periodic AddAfter requeues of an idle kube-apiserver reach ~3/s).
	RetriesPerSecond float64 `json:"retriesPerSecond"`
	// BacklogDepth: this many items waiting is a backlog (operator rule sets: 100).
	BacklogDepth float64 `json:"backlogDepth"`
	// RisingDepth: a depth that rose by at least this over the window is a growing backlog, and
	// busy workers whose queue grew that much are saturated.
	RisingDepth float64 `json:"risingDepth"`
	// SlowWork: work p99 at or above this, with workers to spare, is slow reconciling.
	SlowWork Duration `json:"slowWork"`
	// SaturatedQueueWait: queue p99 at or above this while every worker is busy is saturation.
	SaturatedQueueWait Duration `json:"saturatedQueueWait"`
	// HotLoopObjectRate: reconciles per object a second at or above this, mostly requeues
	// (HotLoopRequeueRatio), with work p50 under HotLoopWork, is a hot loop; at
	// HotLoopObjectRateAnyResult or above, whatever the results (a reconcile that re-triggers
	// itself succeeds; objects changed from outside once a second each are no loop). Judged
	// when the objects the controller reconciles were counted.
	HotLoopObjectRate          float64 `json:"hotLoopObjectRate"`
	HotLoopObjectRateAnyResult float64 `json:"hotLoopObjectRateAnyResult"`
	// HotLoopRequeueRatio, HotLoopRate: without an objects count, requeue results / reconciles
	// at or above HotLoopRequeueRatio, with HotLoopRate reconciles a second and work p50 under
	// HotLoopWork, is a hot loop (periodic polling of many objects stays below HotLoopRate).
	HotLoopRequeueRatio float64  `json:"hotLoopRequeueRatio"`
	HotLoopRate         float64  `json:"hotLoopRate"`
	HotLoopWork         Duration `json:"hotLoopWork"`
	// ThrottleWait: a mean wait in the client rate limiter at or above this, over at least
	// ThrottleMinRequests requests, is throttling. A throttled client makes few requests by
	// definition (QPS 1 allows five in a 5s window), so this count is lower than MinEvents.
	ThrottleWait        Duration `json:"throttleWait"`
	ThrottleMinRequests float64  `json:"throttleMinRequests"`
	// APIErrorRatio: 5xx and transport errors / requests above this (kubernetes-mixin: 1 %).
	// 429s are not counted: they are server-side throttling (ServerThrottleRejections).
	APIErrorRatio float64 `json:"apiErrorRatio"`
	// ServerThrottleRejections: this many 429 answers to a controller's requests, or requests
	// an API Priority and Fairness priority level rejected, in the window is server-side
	// throttling. A rejected request is retried after the server's Retry-After, so one is a
	// delay; a few within seconds mean the level has no seat left for them. An idle API server
	// rejects none.
	ServerThrottleRejections float64 `json:"serverThrottleRejections"`
	// APFQueueWait: a p99 wait in a priority level's queues at or above this, over at least
	// MinEvents requests that waited in the window, is server-side throttling too (at rest
	// requests wait microseconds, well under the first 5ms bucket).
	APFQueueWait Duration `json:"apfQueueWait"`
	// APIServerLatency: a p99 over the window at or above this, over at least MinEvents
	// requests, of a verb on a resource a controller uses is a slow API server for it
	// (kubernetes-mixin's API server latency SLO: 1s for a mutating or single-object request);
	// a controller's client p99 there while the server's is below it is the client waiting.
	APIServerLatency Duration `json:"apiServerLatency"`
	// WebhookLatency: an admission webhook whose p90 latency over the window is at or above
	// this, over at least MinEvents requests, is slow (operator rule sets: p90 > 200 ms).
	WebhookLatency Duration `json:"webhookLatency"`
	// InformerQueuedItems, InformerLatency: events waiting before the handlers, or handler p99
	// latency, at or above these is cache sync lag.
	InformerQueuedItems float64  `json:"informerQueuedItems"`
	InformerLatency     Duration `json:"informerLatency"`
	// Since: restarts and OOMKills that ended longer ago than this are history (info), not a
	// warning or critical (report --since).
	Since Duration `json:"since"`
	// TargetQueueWait is the p99 queue wait the capacity model sizes the workers for: a measured
	// queue p99 at or above it, with the model saying more workers are needed, is
	// under-provisioned (report --target-queue-wait). It is also the queue-wait objective
	// (--slo queue-wait-p99): more than 1 % of the window's waits surely over it breaks it.
	TargetQueueWait Duration `json:"targetQueueWait"`
	// TargetSpecLatency is the spec-latency objective (--slo spec-p99): the p99 time from a
	// change of an object's spec (metadata.generation) to its controller having acted on it
	// (status.observedGeneration).
	TargetSpecLatency Duration `json:"targetSpecLatency"`
	// MemoryRatio: resident memory / container memory limit at or above this is memory pressure.
	MemoryRatio float64 `json:"memoryRatio"`
	// MissedSyncs: a controller that syncs on a period (external-dns --interval) whose last
	// successful sync, or its start when none succeeded, is this many periods old or more has
	// stopped syncing. A sync may run past its period on a large zone, so one late is not it.
	MissedSyncs float64 `json:"missedSyncs"`
}

// DefaultThresholds are the thresholds report starts from.
func DefaultThresholds() Thresholds {
	return Thresholds{
		MinEvents:                  10,
		StuckAfter:                 Duration(30 * time.Second),
		ErrorRatio:                 0.10,
		RetryStormRate:             2,
		PersistentFailures:         3,
		RetryRatio:                 0.5,
		RetriesPerSecond:           10,
		BacklogDepth:               100,
		RisingDepth:                10,
		SlowWork:                   Duration(time.Second),
		SaturatedQueueWait:         Duration(time.Second),
		HotLoopObjectRate:          1,
		HotLoopObjectRateAnyResult: 5,
		HotLoopRequeueRatio:        0.5,
		HotLoopRate:                20,
		HotLoopWork:                Duration(50 * time.Millisecond),
		ThrottleWait:               Duration(50 * time.Millisecond),
		ThrottleMinRequests:        3,
		APIErrorRatio:              0.01,
		ServerThrottleRejections:   3,
		APFQueueWait:               Duration(time.Second),
		APIServerLatency:           Duration(time.Second),
		WebhookLatency:             Duration(200 * time.Millisecond),
		InformerQueuedItems:        100,
		InformerLatency:            Duration(time.Second),
		MemoryRatio:                0.8,
		TargetQueueWait:            Duration(time.Second),
		TargetSpecLatency:          Duration(30 * time.Second),
		Since:                      Duration(time.Hour),
		MissedSyncs:                3,
	}
}

// Duration is a time.Duration written as "30s" in YAML and JSON.
type Duration time.Duration

func (d Duration) String() string               { return time.Duration(d).String() }
func (d Duration) Seconds() float64             { return time.Duration(d).Seconds() }
func (d Duration) MarshalJSON() ([]byte, error) { return []byte(`"` + d.String() + `"`), nil }
func (d *Duration) UnmarshalJSON(b []byte) error {
	v, err := time.ParseDuration(strings.Trim(string(b), `"`))
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// ThresholdNames lists the json names of every threshold.
func ThresholdNames() []string {
	rt := reflect.TypeOf(Thresholds{})
	names := make([]string, 0, rt.NumField())
	for i := 0; i < rt.NumField(); i++ {
		names = append(names, strings.Split(rt.Field(i).Tag.Get("json"), ",")[0])
	}
	return names
}

func fieldByJSON(t *Thresholds, name string) reflect.Value {
	rv := reflect.ValueOf(t).Elem()
	for i := 0; i < rv.NumField(); i++ {
		if strings.Split(rv.Type().Field(i).Tag.Get("json"), ",")[0] == name {
			return rv.Field(i)
		}
	}
	return reflect.Value{}
}

// ThresholdDoc tells what one threshold is: its name (as in --threshold name=value), its
// default as typed, its unit and what it decides.
type ThresholdDoc struct {
	Name    string `json:"name"`
	Default string `json:"default"`
	Unit    string `json:"unit"`
	Meaning string `json:"meaning"`
}

// thresholdDocs are the unit and the meaning of every threshold, by name: the one description
// that kubectl ctrldiag explain prints (a test keeps it complete and docs/guide/checks.md in line with it).
var thresholdDocs = map[string]struct{ unit, meaning string }{
	"minEvents":                  {"count", "the fewest events (adds, reconciles, requests) in the window for a ratio or a latency to count"},
	"stuckAfter":                 {"duration", "an item in a worker for this long means a stuck worker"},
	"errorRatio":                 {"ratio", "failed reconciles / reconciles above this means the reconciles fail (retry storm, persistent or lifetime failures)"},
	"retryStormRate":             {"per second", "failing reconciles a second at or above this, with errorRatio exceeded, are a retry storm; fewer are objects that keep failing"},
	"persistentFailures":         {"count", "when the objects' status was not read, this many failing reconciles in the window mean some objects keep failing; fewer are info"},
	"retryRatio":                 {"ratio", "on a queue without reconcile metrics, retries / adds at or above this is a retry storm"},
	"retriesPerSecond":           {"per second", "on a queue without reconcile metrics, fewer retries a second than this are no storm"},
	"backlogDepth":               {"items", "this many items waiting is a deep backlog"},
	"risingDepth":                {"items", "a depth that rose by this much over the window is a growing backlog; with every worker busy, the workers are saturated"},
	"slowWork":                   {"duration", "work p99 at or above this, with workers free, is slow reconciling"},
	"saturatedQueueWait":         {"duration", "queue p99 at or above this while every worker is busy means the workers are saturated"},
	"hotLoopObjectRate":          {"per second", "reconciles per object a second at or above this, mostly requeues with little work, is a hot loop (when the objects were counted)"},
	"hotLoopObjectRateAnyResult": {"per second", "reconciles per object a second at or above this, whatever their results, is a hot loop (when the objects were counted)"},
	"hotLoopRequeueRatio":        {"ratio", "requeue results / reconciles at or above this is \"mostly requeues\" for a hot loop"},
	"hotLoopRate":                {"per second", "when the objects were not counted, reconciles a second at or above this, mostly requeues, is a hot loop"},
	"hotLoopWork":                {"duration", "a hot loop does little work: work p50 under this"},
	"throttleWait":               {"duration", "a mean wait in the client's rate limiter at or above this is client-side throttling"},
	"throttleMinRequests":        {"count", "the fewest requests in the window for throttleWait to count"},
	"apiErrorRatio":              {"ratio", "5xx and transport errors / API requests above this means API errors (429 answers are not counted)"},
	"serverThrottleRejections":   {"count", "this many 429 answers (or requests a priority level rejected) in the window is server-side throttling"},
	"apfQueueWait":               {"duration", "a p99 wait in an API Priority and Fairness level's queues at or above this is server-side throttling"},
	"apiServerLatency":           {"duration", "a p99 at or above this of a verb on a resource a controller uses is a slow API server; the controller's client p99 at it while the server's is below is the client waiting"},
	"webhookLatency":             {"duration", "an admission webhook whose p90 latency is at or above this is slow"},
	"informerQueuedItems":        {"items", "this many events waiting before an informer's handlers is cache sync lag"},
	"informerLatency":            {"duration", "an informer's handler p99 latency at or above this is cache sync lag"},
	"since":                      {"duration", "restarts and OOMKills that ended longer ago than this are history (info); report --since"},
	"targetQueueWait":            {"duration", "the p99 queue wait the capacity model sizes the workers for, and the queue-wait objective (--slo queue-wait-p99); report --target-queue-wait"},
	"targetSpecLatency":          {"duration", "the p99 time from a spec change to the controller having acted on it (observedGeneration), the spec-latency objective (--slo spec-p99)"},
	"memoryRatio":                {"ratio", "resident memory / the container's memory limit at or above this is memory pressure"},
	"missedSyncs":                {"periods", "a controller that syncs on a period (external-dns --interval) whose last successful sync is this many periods old has stopped syncing"},
}

// ThresholdDocs describes every threshold, in the order of ThresholdNames.
func ThresholdDocs() []ThresholdDoc {
	def := DefaultThresholds()
	out := make([]ThresholdDoc, 0, len(thresholdDocs))
	for _, name := range ThresholdNames() {
		d := thresholdDocs[name]
		unit := d.unit
		if unit == "ratio" {
			unit = "ratio, 0 to 1"
		}
		out = append(out, ThresholdDoc{Name: name, Default: example(name, fieldByJSON(&def, name)), Unit: unit, Meaning: d.meaning})
	}
	return out
}
