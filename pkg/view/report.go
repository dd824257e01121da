package view

import (
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/events"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
)

// ReportKind is the report's kind; its apiVersion is APIVersion, that of every structured
// output.
const ReportKind = "Report"

// Report is the whole diagnosis. Numbers that cannot be known are null.
type Report struct {
	APIVersion  string    `json:"apiVersion"`
	Kind        string    `json:"kind"`
	GeneratedAt time.Time `json:"generatedAt"`
	// Scope says where targets were looked for; Window the time between the two samples
	// ("lifetime" when no target was read twice: figures since each process started). A
	// target judged over another window (only its first sample was read) has an entry in
	// Errors that names its window.
	Scope   string  `json:"scope"`
	Window  string  `json:"window"`
	Summary Summary `json:"summary"`
	// Fleet summarises each cluster, worst first, when the targets span several clusters (read
	// from a Prometheus server); the rows and findings below name their cluster in the target.
	Fleet []ClusterSummary `json:"fleet,omitempty"`
	// Partial, when set, says that the server answered without some of its stores (and which
	// clusters it lacks, where that can be told): the report is not of the whole fleet.
	Partial *Partial `json:"partial,omitempty"`
	// clusterOf maps target IDs to their clusters, for Recount, in a fleet (SetFleet).
	clusterOf map[string]string
	Pods      []Pod `json:"pods"`
	// Signals say, for each target read, which of the signals that only newer versions give
	// its page gave, and why the others are absent.
	Signals   []Signal    `json:"signals,omitempty"`
	Backlog   []Backlog   `json:"backlog"`
	CacheSync CacheSync   `json:"cacheSync"`
	Events    []Events    `json:"events"`
	Resources []Resources `json:"resources"`
	// Notes say what was not read and needs no action to read the rest: the API server's
	// /metrics that the user may not get, with the permission that would read it.
	Notes []string `json:"notes,omitempty"`
	// WindowNotes say where a target's figures are not over the window between its samples:
	// it restarted between them, or the work it did cannot fit in the window.
	WindowNotes []string `json:"windowNotes,omitempty"`
	// ResourcesNote says why metrics.k8s.io usage is missing, when it is.
	ResourcesNote string `json:"resourcesNote,omitempty"`
	// Objects are the objects the controllers reconcile, by kind; null when no cluster was
	// read.
	Objects *objects.View `json:"objects"`
	// WarningEvents are the Warning events that speak of the controllers (reported by them,
	// or on objects of their kinds) over the window and a short lookback, grouped by reason
	// and object; absent when no cluster was read.
	WarningEvents *events.View `json:"warningEvents,omitempty"`
	// ClusterRead, when the targets were read from a Prometheus server, says which cluster the
	// sections that need the cluster itself (pods, objects, Leases, generation lag, the metrics
	// API's usage) were read from, and when: the cluster as it is now, beside the series'
	// window. ClusterAbsent says why they are absent instead (the report is about the past, a
	// fleet, no kubeconfig, an API server out of reach, a refused list, another cluster).
	ClusterRead   string `json:"clusterRead,omitempty"`
	ClusterAbsent string `json:"clusterAbsent,omitempty"`
	// Resolution, when the targets were read from a Prometheus server, is the resolution the
	// window was judged at: "raw", or "up to 5m: downsampled data may have been used"
	// (Thanos Query's max_source_resolution; Thanos does not say which data it used).
	Resolution string `json:"resolution,omitempty"`
	// ResolutionNote, when the server may have answered from downsampled data, is what the
	// text outputs say of it as the source resolution, under their header (-o json has
	// Resolution).
	ResolutionNote string `json:"-"`
	// Capacity is the capacity model's reading of every queue with enough completions in the
	// window; empty with one sample.
	Capacity []Capacity `json:"capacity"`
	// SLIs are every queue's service levels over the window, one per queue read.
	SLIs     []SLI              `json:"slis"`
	Findings []findings.Finding `json:"findings"`
	// Goroutines are where the workers of targets with stuck, slow or saturated queues wait,
	// from each one's goroutine dump (or why it was not read); empty when none was asked for.
	Goroutines []Goroutines `json:"goroutines,omitempty"`
	// Logs are what the controllers' recent logs say, one per target whose log was read
	// (the leader's pod); empty when none was read.
	Logs []Log `json:"logs,omitempty"`
	// Suppressions are the findings left out by an ignore file or annotation; nil when none.
	Suppressions *Suppressions `json:"suppressions,omitempty"`
	Errors       []TargetError `json:"errors,omitempty"`
}

// Pod is section 1: a controller pod's state.
type Pod struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	Workload  string `json:"workload,omitempty"`
	Node      string `json:"node,omitempty"`
	Phase     string `json:"phase"`
	Ready     bool   `json:"ready"`
	Restarts  int32  `json:"restarts"`
	// AgeSeconds since the pod started.
	AgeSeconds float64 `json:"ageSeconds"`
	// LastTermination is the reason of the last container termination (OOMKilled, Error).
	LastTermination string `json:"lastTermination,omitempty"`
	Scraped         bool   `json:"scraped"`
	Note            string `json:"note,omitempty"`
	// Flagz are the flags of its knobs the process said it runs with (its /flagz, read for
	// kube-controller-manager), or why they could not be read; absent when not asked.
	Flagz *knobs.Flagz `json:"flagz,omitempty"`
}

// Signal is one signal only newer versions give, on one target: present, or absent and why.
type Signal struct {
	Target  string `json:"target"`
	Signal  string `json:"signal"`
	Present bool   `json:"present"`
	// Absent says why the signal is not there ("Kubernetes before 1.36, or no skip yet").
	Absent string `json:"absent,omitempty"`
}

// CacheSync is section 3.
type CacheSync struct {
	// Methods lists the methods that applied, in the order they are tried.
	Methods     []string        `json:"methods"`
	Informers   []Informer      `json:"informers"`
	Generations []GenerationLag `json:"generations"`
	Metrics     []Metric        `json:"metrics,omitempty"`
	Note        string          `json:"note,omitempty"`
}

// Informer is one named informer's lag.
type Informer struct {
	Target            string   `json:"target"`
	Informer          string   `json:"informer"`
	Method            string   `json:"method"`
	QueuedItems       *float64 `json:"queuedItems"`
	LatencyP99Seconds *float64 `json:"latencyP99Seconds"`
	// LatencyP99AtLeast: the p99 is only known to be LatencyP99Seconds or more.
	LatencyP99AtLeast bool     `json:"latencyP99AtLeast,omitempty"`
	VersionsBehind    *float64 `json:"versionsBehind"`
	BehindAPIServer   bool     `json:"behindAPIServer"`
}

// GenerationLag is the generation lag of one resource type, as section 3 shows it (counts and
// examples; cachesync.GenerationReport holds the objects).
type GenerationLag struct {
	Resource     string   `json:"resource"`
	Checked      int      `json:"checked"`
	Lagging      int      `json:"lagging"`
	StillLagging int      `json:"stillLagging"`
	Examples     []string `json:"examples,omitempty"`
	Error        string   `json:"error,omitempty"`
}

// Metric is a cache_sync_lag series, as exposed.
type Metric struct {
	Target string   `json:"target"`
	Series string   `json:"series"`
	Value  *float64 `json:"value"`
}

// Resources is section 5: one target's memory and CPU.
type Resources struct {
	Target              string   `json:"target"`
	ResidentMemoryBytes *float64 `json:"residentMemoryBytes"`
	HeapBytes           *float64 `json:"heapBytes"`
	CPUCores            *float64 `json:"cpuCores"`
	MemoryRequestBytes  *float64 `json:"memoryRequestBytes"`
	MemoryLimitBytes    *float64 `json:"memoryLimitBytes"`
	CPURequestCores     *float64 `json:"cpuRequestCores"`
	CPULimitCores       *float64 `json:"cpuLimitCores"`
	// MemoryOfLimit is resident memory / memory limit.
	MemoryOfLimit *float64 `json:"memoryOfLimit"`
	// UsageMemoryBytes and UsageCPUCores come from metrics.k8s.io when it is served.
	UsageMemoryBytes *float64 `json:"usageMemoryBytes"`
	UsageCPUCores    *float64 `json:"usageCPUCores"`
	LastTermination  string   `json:"lastTermination,omitempty"`
}

// Recount ranks the findings by impact (RankFindings) and sets the summary from them: the
// counts, the controllers in trouble, the healthy line and the verdict; in a fleet each
// cluster's counts and worst finding too. It runs when the report is built, and again after
// some findings were suppressed.
func (r *Report) Recount() {
	RankFindings(*r, r.Findings)
	if r.Fleet != nil {
		tally(r.Fleet, r.Findings, r.clusterOf)
	}
	r.Summary.Critical, r.Summary.Warning, r.Summary.Info = 0, 0, 0
	for _, f := range r.Findings {
		switch f.Severity {
		case findings.Critical:
			r.Summary.Critical++
		case findings.Warning:
			r.Summary.Warning++
		default:
			r.Summary.Info++
		}
	}
	r.Summary.InTrouble = Troubles(r.Findings, r.Capacity, r.Backlog, r.Events)
	r.Summary.Healthy = healthy(r.Summary, len(r.Backlog), r.Window)
	r.Summary.Suppressed, r.Summary.SuppressedBy = r.Suppressions.changing()
	r.Summary.Verdict = verdict(r.Summary)
}
