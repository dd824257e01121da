package health

import (
	"math"
	"sort"
	"strings"
	"time"

	dto "github.com/prometheus/client_model/go"
)

// Metric family names the model reads.
const (
	wqDepth      = "workqueue_depth"
	wqAdds       = "workqueue_adds_total"
	wqRetries    = "workqueue_retries_total"
	wqQueueDur   = "workqueue_queue_duration_seconds"
	wqWorkDur    = "workqueue_work_duration_seconds"
	wqUnfinished = "workqueue_unfinished_work_seconds"
	wqLongest    = "workqueue_longest_running_processor_seconds"

	crReconcileTotal  = "controller_runtime_reconcile_total"
	crReconcileErrors = "controller_runtime_reconcile_errors_total"
	crTerminalErrors  = "controller_runtime_terminal_reconcile_errors_total"
	crPanics          = "controller_runtime_reconcile_panics_total"
	crTimeouts        = "controller_runtime_reconcile_timeouts_total"
	crActiveWorkers   = "controller_runtime_active_workers"
	crMaxConcurrent   = "controller_runtime_max_concurrent_reconciles"

	restRequests    = "rest_client_requests_total"
	restRateLimiter = "rest_client_rate_limiter_duration_seconds"

	informerQueued  = "informer_queued_items"
	informerLatency = "informer_processing_latency_seconds"
	informerRV      = "informer_store_resource_version"
	watchCacheRV    = "apiserver_watch_cache_resource_version"

	processRSS   = "process_resident_memory_bytes"
	processCPU   = "process_cpu_seconds_total"
	processStart = "process_start_time_seconds"
	heapInuse    = "go_memstats_heap_inuse_bytes"
	heapAlloc    = "go_memstats_heap_alloc_bytes"
	cacheSyncLag = "cache_sync_lag"
)

var wanted = map[string]bool{
	wqDepth: true, wqAdds: true, wqRetries: true, wqQueueDur: true, wqWorkDur: true,
	wqUnfinished: true, wqLongest: true,
	crReconcileTotal: true, crReconcileErrors: true, crTerminalErrors: true, crPanics: true, crTimeouts: true,
	crActiveWorkers: true, crMaxConcurrent: true,
	restRequests: true, restRateLimiter: true, leaderStatus: true, // leaderStatus: leadership.go
	informerQueued: true, informerLatency: true, informerRV: true, watchCacheRV: true,
	processRSS: true, processCPU: true, processStart: true, heapInuse: true, heapAlloc: true,
	apfRejected: true, apfInQueue: true, apfWait: true, // flowcontrol.go
	crWebhookLatency: true, crWebhookRequests: true, crWebhookInFlight: true, // webhooks.go
	admissionLatency: true, admissionRejection: true, // admission.go
	apiRequestDuration: true, restDuration: true, // requests.go
}

// Wanted reports whether the model reads the metric family of this name. Use it to filter
// pages before parsing; families it rejects are never needed.
func Wanted(family string) bool {
	return wanted[family] || strings.Contains(family, cacheSyncLag)
}

// WantedFamilies lists the families Wanted accepts by name, sorted, and the fragment that
// accepts any family whose name contains it (cache_sync_lag): what a source that must name
// families in a query (a Prometheus server) asks for.
func WantedFamilies() (names []string, fragment string) {
	names = make([]string, 0, len(wanted))
	for n := range wanted {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, cacheSyncLag
}

// WantedQueues is Wanted narrowed to what the queue figures read (queues, reconciles,
// leadership, and the process's start time that tells a restart between two samples): `kubectl ctrldiag queues` parses no more than that.
func WantedQueues(family string) bool {
	return strings.HasPrefix(family, "workqueue_") && wanted[family] ||
		strings.HasPrefix(family, "controller_runtime_") && wanted[family] || family == leaderStatus ||
		family == processStart
}

// FromFamilies builds the snapshot of one page taken at t. Families the model does not know
// are ignored; series without the labels a family needs are skipped. A histogram the page
// gives no TYPE is read by the shape of its series (see withUntypedHistograms).
func FromFamilies(page map[string]*dto.MetricFamily, t time.Time) *Snapshot {
	fams := withUntypedHistograms(page)
	s := &Snapshot{
		Time:        t,
		Queues:      map[string]*Queue{},
		Controllers: map[string]*Controller{},
		Client:      Client{RequestsByCode: map[string]float64{}},
		Informers:   map[InformerKey]*Informer{},
		WatchCache:  map[GroupResource]float64{},
		Leader:      map[string]float64{},
		Process:     Process{ResidentMemoryBytes: math.NaN(), HeapBytes: math.NaN(), CPUSeconds: math.NaN(), StartTime: math.NaN()},
		Families:    make(map[string]bool, len(fams)),
	}
	for name, f := range fams {
		s.Families[name] = true
		if strings.Contains(name, cacheSyncLag) {
			s.CacheSyncLag = append(s.CacheSyncLag, f)
		}
		for _, m := range f.GetMetric() {
			s.addSeries(name, m)
		}
	}
	s.addSyncCounts(fams[cmSyncCalls], fams[cmSyncErrors])
	if math.IsNaN(s.Process.HeapBytes) {
		s.Process.HeapBytes = single(fams[heapAlloc])
	}
	s.Mistyped = MistypedFamilies(page)
	return s
}

// addSeries files one series of family name into the snapshot.
func (s *Snapshot) addSeries(name string, m *dto.Metric) {
	l := seriesLabels(m.GetLabel())
	v := value(m)
	switch name {
	case wqDepth, wqAdds, wqRetries, wqUnfinished, wqLongest, wqQueueDur, wqWorkDur:
		if l.get("name") == "" {
			return // an unnamed queue exports nothing useful
		}
		q := s.queue(l.get("name"), l.get("controller"))
		switch name {
		case wqDepth:
			q.Depth = sum(q.Depth, v)
			if p := l.get("priority"); p != "" {
				if q.DepthByPriority == nil {
					q.DepthByPriority = map[string]float64{}
				}
				q.DepthByPriority[p] += v
			}
		case wqAdds:
			q.Adds = sum(q.Adds, v)
		case wqRetries:
			q.Retries = sum(q.Retries, v)
		case wqUnfinished:
			q.Unfinished = sum(q.Unfinished, v)
		case wqLongest:
			q.Longest = maxOf(q.Longest, v)
		case wqQueueDur:
			q.QueueDuration = addHistogram(q.QueueDuration, m)
		case wqWorkDur:
			q.WorkDuration = addHistogram(q.WorkDuration, m)
		}
	case crReconcileTotal, crReconcileErrors, crTerminalErrors, crPanics, crTimeouts, crActiveWorkers, crMaxConcurrent:
		if l.get("controller") == "" {
			return
		}
		c := s.controller(l.get("controller"))
		switch name {
		case crReconcileTotal:
			c.ReconcileTotal[l.get("result")] += v
		case crReconcileErrors:
			c.ReconcileErrors = sum(c.ReconcileErrors, v)
		case crTerminalErrors:
			c.TerminalErrors = sum(c.TerminalErrors, v)
		case crPanics:
			c.Panics = sum(c.Panics, v)
		case crTimeouts:
			c.Timeouts = sum(c.Timeouts, v)
		case crActiveWorkers:
			c.ActiveWorkers = sum(c.ActiveWorkers, v)
		case crMaxConcurrent:
			c.MaxConcurrent = sum(c.MaxConcurrent, v)
		}
	case restRequests:
		s.Client.RequestsByCode[l.get("code")] += v
	case restRateLimiter:
		s.Client.RateLimiterDuration = addHistogram(s.Client.RateLimiterDuration, m)
	case informerQueued, informerLatency, informerRV:
		i := s.informer(InformerKey{Name: l.get("name"), Group: l.get("group"), Version: l.get("version"), Resource: l.get("resource")})
		switch name {
		case informerQueued:
			i.QueuedItems = sum(i.QueuedItems, v)
		case informerRV:
			i.ResourceVersion = maxOf(i.ResourceVersion, v)
		case informerLatency:
			i.ProcessingLatency = addHistogram(i.ProcessingLatency, m)
		}
	case watchCacheRV:
		s.WatchCache[GroupResource{Group: l.get("group"), Resource: l.get("resource")}] = v
	case processRSS:
		s.Process.ResidentMemoryBytes = v
	case processCPU:
		s.Process.CPUSeconds = v
	case processStart:
		s.Process.StartTime = v
	case heapInuse:
		s.Process.HeapBytes = v
	default:
		if s.addStaleSkips(name, v) || s.addPeriodic(name, v) {
			return
		}
		all := labels(m)
		s.addFlowControl(name, all, v, m)
		s.addWebhook(name, all, v, m)
		s.addAdmission(name, all, v, m)
		s.addRequests(name, all, m)
		s.addLeaderSeries(name, all, v)
	}
}

func (s *Snapshot) queue(name, controller string) *Queue {
	q := s.Queues[name]
	if q == nil {
		n := math.NaN()
		q = &Queue{Name: name, Depth: n, Adds: n, Retries: n, Unfinished: n, Longest: n}
		s.Queues[name] = q
	}
	if q.Controller == "" {
		q.Controller = controller
	}
	return q
}

func (s *Snapshot) controller(name string) *Controller {
	c := s.Controllers[name]
	if c == nil {
		n := math.NaN()
		c = &Controller{Name: name, ReconcileTotal: map[string]float64{}, ReconcileErrors: n,
			TerminalErrors: n, Panics: n, Timeouts: n, ActiveWorkers: n, MaxConcurrent: n}
		s.Controllers[name] = c
	}
	return c
}

func (s *Snapshot) informer(k InformerKey) *Informer {
	i := s.Informers[k]
	if i == nil {
		i = &Informer{QueuedItems: math.NaN(), ResourceVersion: math.NaN()}
		s.Informers[k] = i
	}
	return i
}

// seriesLabels are a series' labels, read without the map labels builds: most families read
// two or three of a few labels.
type seriesLabels []*dto.LabelPair

// get is the value of the label name, "" without it: what labels' map gives (the last of
// a repeated name, which parsing refuses anyway).
func (l seriesLabels) get(name string) string {
	var v string
	for _, p := range l {
		if p.GetName() == name {
			v = p.GetValue()
		}
	}
	return v
}

func labels(m *dto.Metric) map[string]string {
	l := make(map[string]string, len(m.GetLabel()))
	for _, p := range m.GetLabel() {
		l[p.GetName()] = p.GetValue()
	}
	return l
}

// value is the sample value of a gauge, counter or untyped series.
func value(m *dto.Metric) float64 {
	switch {
	case m.Gauge != nil:
		return m.GetGauge().GetValue()
	case m.Counter != nil:
		return m.GetCounter().GetValue()
	case m.Untyped != nil:
		return m.GetUntyped().GetValue()
	}
	return math.NaN()
}

func single(f *dto.MetricFamily) float64 {
	if f == nil || len(f.GetMetric()) == 0 {
		return math.NaN()
	}
	return value(f.GetMetric()[0])
}

func addHistogram(h *Histogram, m *dto.Metric) *Histogram {
	if m.Histogram == nil {
		return h
	}
	if h == nil {
		h = &Histogram{}
	}
	h.add(m.GetHistogram())
	return h
}

// sum adds v to acc, treating a NaN acc as "nothing yet".
func sum(acc, v float64) float64 {
	if math.IsNaN(acc) {
		return v
	}
	return acc + v
}

func maxOf(acc, v float64) float64 {
	if math.IsNaN(acc) || v > acc {
		return v
	}
	return acc
}
