package health

import (
	"math"
	"time"

	dto "github.com/prometheus/client_model/go"
)

// Snapshot is what one metrics page of one target says about its controllers. Values a page
// does not have are NaN (gauges, counters) or nil (histograms).
type Snapshot struct {
	// Time is when the page was taken (zero when unknown).
	Time        time.Time
	Queues      map[string]*Queue      // by workqueue name
	Controllers map[string]*Controller // by controller-runtime controller name
	Client      Client
	Informers   map[InformerKey]*Informer
	// WatchCache is apiserver_watch_cache_resource_version by group and resource (API server only).
	WatchCache map[GroupResource]float64
	// StaleSyncSkips counts, by queue, the syncs kube-controller-manager's controllers skipped
	// because their cache was behind their own last write (staleskips.go); nil when the page
	// has none.
	StaleSyncSkips map[string]float64
	// SyncsOnly names the framework whose sync counters gave Controllers and their queues
	// (CertManager: no queue figures, only syncs and errors; syncsonly.go); "" otherwise.
	SyncsOnly string
	// Periodic is what a controller that syncs on a period says of its syncs (syncs.go); nil
	// when the page has none of its families.
	Periodic *Periodic
	// Leader is leader_election_master_status by lease name, as the page has it: 1 leader, 0
	// backup. Read it through Leadership, the one rule for a process with several leases.
	Leader  map[string]float64
	Process Process
	// FlowControl is the API server's API Priority and Fairness (API server only).
	FlowControl FlowControl
	// Webhooks are the admission webhooks a controller-runtime process serves, by path.
	Webhooks map[string]*Webhook
	// Admission are the API server's calls to admission webhooks (API server only).
	Admission map[AdmissionKey]*AdmissionWebhook
	// APIRequests is the API server's request latency by verb and resource, long-running
	// verbs (WATCH, CONNECT) left out (API server only).
	APIRequests map[APIRequestKey]*Histogram
	// CacheSyncLag holds every family whose name contains "cache_sync_lag", as parsed.
	CacheSyncLag []*dto.MetricFamily
	// Mistyped are the families read whose TYPE kept their values out (see MistypedFamilies).
	Mistyped []Mistyped
	// Families are the names of the families on the page (those the parse kept).
	Families map[string]bool
}

// Queue is one client-go workqueue.
type Queue struct {
	Name string
	// Controller is the controller-runtime controller label, "" on component-base queues.
	Controller    string
	Depth         float64 // ready items, summed over priorities
	Adds          float64 // counter
	Retries       float64 // counter: every AddAfter/AddRateLimited, not only errors
	QueueDuration *Histogram
	WorkDuration  *Histogram
	Unfinished    float64 // seconds of work in flight, summed over items
	Longest       float64 // seconds the oldest in-flight item has been processed

	// DepthByPriority is workqueue_depth by its priority label, on controller-runtime's
	// priority queue ("0", "-100", ..., "exceeded_cardinality_limit"); nil on a plain queue,
	// whose priority label is "" or absent.
	DepthByPriority map[string]float64
}

// Controller is one controller-runtime controller.
type Controller struct {
	Name            string
	ReconcileTotal  map[string]float64 // counter by result: success, error, requeue, requeue_after
	ReconcileErrors float64            // counter, includes terminal errors
	TerminalErrors  float64            // counter
	Panics          float64            // counter
	// Timeouts counts reconciles that ReconciliationTimeout cut off (controller-runtime >=
	// 0.23); NaN when the page has no such series.
	Timeouts float64

	ActiveWorkers float64
	MaxConcurrent float64
}

// Reconciles is the total of reconcile_total over all results (NaN when absent).
func (c *Controller) Reconciles() float64 {
	if c == nil || len(c.ReconcileTotal) == 0 {
		return math.NaN()
	}
	var t float64
	for _, v := range c.ReconcileTotal {
		t += v
	}
	return t
}

// Client is the client-go REST client of the process.
type Client struct {
	RequestsByCode map[string]float64 // rest_client_requests_total summed by code
	// LatencyByVerb is rest_client_request_duration_seconds by verb (GET, LIST, POST, PUT,
	// PATCH, DELETE), summed over hosts; nil when the client does not export it.
	LatencyByVerb       map[string]*Histogram
	RateLimiterDuration *Histogram // client-side throttling
}

// InformerKey names a client-go informer (Kubernetes >= 1.36 named informers).
type InformerKey struct {
	Name, Group, Version, Resource string
}

// Informer holds the informer_* metrics of one named informer.
type Informer struct {
	QueuedItems       float64
	ResourceVersion   float64 // 15 least significant digits
	ProcessingLatency *Histogram
}

// GroupResource names a resource type of the API server's watch cache.
type GroupResource struct {
	Group, Resource string
}

// Process is the resource use of the target process.
type Process struct {
	ResidentMemoryBytes float64
	HeapBytes           float64 // go_memstats_heap_inuse_bytes, else heap_alloc
	CPUSeconds          float64 // counter
	// StartTime is process_start_time_seconds: when the process started, in Unix seconds.
	StartTime float64
}
