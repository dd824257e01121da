package findings

import (
	"reflect"
	"strings"
	"time"
)

// Thresholds decide when a rule fires. Defaults start from public alerting practice
// (kubernetes-mixin, prometheus-operator mixin, operator rule sets; see README) and were checked
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
	// under-provisioned (report --target-queue-wait).
	TargetQueueWait Duration `json:"targetQueueWait"`
	// MemoryRatio: resident memory / container memory limit at or above this is memory pressure.
	MemoryRatio float64 `json:"memoryRatio"`
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
		WebhookLatency:             Duration(200 * time.Millisecond),
		InformerQueuedItems:        100,
		InformerLatency:            Duration(time.Second),
		MemoryRatio:                0.8,
		TargetQueueWait:            Duration(time.Second),
		Since:                      Duration(time.Hour),
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
