package report

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/apiserver"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/events"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/goroutines"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/suppress"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/cachesync"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// Input is everything the report is computed from.
type Input struct {
	Scope string
	// Targets are the targets read (or not), with their samples, pods and errors, each
	// sample turned into the model once (source.Model).
	Targets []model.Target
	// Pods are every pod to show in section 1 (targets' pods and skipped ones), with notes.
	Pods        []PodInput
	Generations []cachesync.GenerationReport
	// Objects are the objects the controllers reconcile; nil when not read (no cluster).
	Objects *objects.View
	// WarningEvents are the Warning events that speak of the controllers, grouped by reason
	// and object; nil when not read (no cluster).
	WarningEvents *events.View
	// Admission is the cluster's admission webhook configurations; nil when not read (no
	// cluster, or no API server page to judge the webhooks by).
	Admission *apiserver.Admission
	// FlowSchemas are the cluster's API Priority and Fairness FlowSchemas; nil when not read
	// (no cluster, or no API server page to judge their waits by).
	FlowSchemas *apiserver.FlowControl
	// Leases are the holders of the Leases of the namespaces where no replica's metrics say
	// which of a workload's replicas leads (model.UnsureLeader of Replicas); nil when not read.
	Leases []model.Holder
	// Usage is metrics.k8s.io's pod usage by "namespace/name"; UsageNote says why it is
	// missing when it is.
	Usage     map[string]source.PodUsage
	UsageNote string
	// ClusterRead says which cluster the pods, objects, Leases and generation lag were read
	// from and when, for targets read elsewhere (a Prometheus server); ClusterAbsent why they
	// were not read where they could have been.
	ClusterRead   string
	ClusterAbsent string
	// Partial, when set, says that the server the series were read from answered without
	// some of its stores.
	Partial *view.Partial
	// Resolution is the resolution the series' window was judged at (see view.Report).
	Resolution string
	// ResolutionNote is what the text outputs say as the source resolution (see view.Report).
	ResolutionNote string
	// MemoryLimitBytes applies to targets without a pod (--url, --from-file); 0 = none.
	MemoryLimitBytes float64
	// Thresholds judge the findings and, through them, the status of every queue.
	Thresholds findings.Thresholds
	// Workers are the workers of queues whose metrics do not say it (--workers QUEUE=N).
	Workers map[string]float64
	// Suppress parts the findings into those the report lists and those accepted (an
	// ignore file, annotations); nil lists them all.
	Suppress func([]findings.Finding) ([]findings.Finding, *suppress.Accepted)
	Now      time.Time
}

// PodInput is a pod for section 1.
type PodInput struct {
	Pod     *corev1.Pod
	Scraped bool
	Note    string
}

// read is one target read into the model, with its snapshots and judged queues.
type read struct {
	in        model.Target
	prev, cur *health.Snapshot
	window    time.Duration
	queues    []health.QueueStats
	kind      findings.Kind
	// restart says why the target's two samples were of different processes ("" if not).
	restart string
	// notes say where the figures are not over the window (findings.Target.Notes).
	notes []string
}

// Build computes the report: Prepare, judged once, finished.
func Build(in Input) view.Report {
	d := Prepare(in)
	return d.Finish(d.Judge(), in.Suppress)
}

// Draft is a report built from its input but not judged: every section but the findings,
// and the targets the rules judge. Judge runs the rules; Finish sets the findings in the
// report. The run layer judges a draft to pick the targets whose goroutine dumps it reads, and
// judges it again only when it read some (SetGoroutines).
type Draft struct {
	r  view.Report
	in Input
	// judged are what the rules judge (findings.Target) of the targets read, then of those
	// not read; judgedOf maps an index of in.Targets to its own.
	judged   []findings.Target
	judgedOf map[int]int
	lags     []findings.CacheLag
	reps     []model.Replica
	readIDs  map[string]bool
}

// Prepare builds every section of the report but the findings, and what the rules judge.
func Prepare(in Input) *Draft {
	// The draft's own targets: a goroutine dump set later changes no caller's.
	in.Targets = slices.Clone(in.Targets)
	var notes []string
	in.Targets, notes = withoutDeniedAPIServer(in.Targets)
	// The cluster's views are complete: every queue's look-ups in them are map look-ups.
	in.Objects.Index()
	in.WarningEvents.Index()
	in.Admission.Index()
	r := view.Report{APIVersion: view.APIVersion, Kind: view.ReportKind, GeneratedAt: in.Now.UTC(), Scope: in.Scope, Window: view.Lifetime,
		Pods: []view.Pod{}, Backlog: []view.Backlog{}, Events: []view.Events{}, Resources: []view.Resources{}, Capacity: []view.Capacity{},
		SLIs: []view.SLI{}, Findings: []findings.Finding{}, Notes: notes}
	var reads []read
	var readIdx []int
	var apiPrev, apiCur *health.Snapshot
	for ti, t := range in.Targets {
		rd, ok := readTarget(t, in.Thresholds, in.Objects)
		if !ok {
			r.Errors = append(r.Errors, view.TargetError{Target: t.ID(), Error: t.ErrText()})
			continue
		}
		if t.Err != nil {
			// Read, but not completely (the second sample failed, the deadline passed before it,
			// or saved pages out of order left one): the target is judged over what was read,
			// and the error stays listed with that window, in the words `queues` uses for it.
			r.Errors = append(r.Errors, view.TargetError{Target: t.ID(), Error: t.Err.Error(), Window: view.WindowName(rd.window)})
		}
		if t.Target.Kind == target.KindAPIServer || rd.kind == findings.KubeAPIServer {
			apiPrev, apiCur = rd.prev, rd.cur
		}
		switch {
		case rd.window > 0 && rd.restart == "":
			r.Window = view.WindowName(rd.window)
		case rd.window > 0 && r.Window == view.Lifetime:
			r.Window = view.WindowName(rd.window) + view.SinceRestart
		}
		reads = append(reads, rd)
		readIdx = append(readIdx, ti)
		r.WindowNotes = append(r.WindowNotes, rd.notes...)
	}
	r.Summary.Targets, r.Summary.Read = len(in.Targets), len(reads)

	r.Pods = podRows(in.Pods, in.Targets, in.Now)
	r.Signals = signals(in.Targets)
	d := &Draft{in: in, judgedOf: make(map[int]int, len(in.Targets)), readIDs: make(map[string]bool, len(reads))}
	var rows []view.Queue
	for k, rd := range reads {
		id := rd.in.ID()
		d.readIDs[id] = true
		for _, q := range rd.queues {
			rows = append(rows, view.NewQueue(q, rd.prev, rd.cur))
		}
		r.Resources = append(r.Resources, resourceRow(rd, in))
		for _, i := range cachesync.Informers(id, rd.prev, rd.cur, apiPrev, apiCur) {
			label := i.Label()
			r.CacheSync.Informers = append(r.CacheSync.Informers, view.Informer{Target: id, Informer: label, Method: string(i.Method),
				QueuedItems: view.Num(i.QueuedItems), LatencyP99Seconds: view.Num(i.LatencyP99Seconds), VersionsBehind: view.Num(i.VersionsBehind),
				LatencyP99AtLeast: i.LatencyP99AtLeast, BehindAPIServer: i.BehindAPIServer})
			d.lags = append(d.lags, findings.CacheLag{Target: id, Kind: rd.kind, Informer: label, QueuedItems: i.QueuedItems,
				LatencyP99: i.LatencyP99Seconds, LatencyP99AtLeast: i.LatencyP99AtLeast, BehindAPIServer: i.BehindAPIServer, VersionsBehind: i.VersionsBehind})
		}
		for _, m := range cachesync.Metrics(id, rd.cur) {
			r.CacheSync.Metrics = append(r.CacheSync.Metrics, view.Metric{Target: id, Series: m.Series, Value: view.Num(m.Value)})
		}
		// The capacity model once: section 6 shows it, and the rules judge it.
		ft := findings.WithCapacity(findingsTarget(rd, in), in.Thresholds)
		d.judgedOf[readIdx[k]] = len(d.judged)
		d.judged = append(d.judged, ft)
		caps := capacityRows(ft, in.Thresholds)
		r.SLIs = append(r.SLIs, sliRows(ft, in.Thresholds, caps)...)
		r.Capacity = append(r.Capacity, caps...)
		if rep, ok := replicaOf(rd.in, rd.cur); ok {
			d.reps = append(d.reps, rep)
		}
	}
	for _, t := range in.Targets {
		if !t.Read() {
			d.judged = append(d.judged, findings.Target{ID: t.ID(), Kind: findings.ClientGo, ScrapeError: t.ErrText()})
		}
	}
	r.CacheSync.Generations = generationRows(in.Generations)
	r.Objects = in.Objects
	r.WarningEvents = in.WarningEvents
	r.ResourcesNote = in.UsageNote
	r.ClusterRead, r.ClusterAbsent = in.ClusterRead, in.ClusterAbsent
	r.Partial = in.Partial
	r.Resolution, r.ResolutionNote = in.Resolution, in.ResolutionNote
	r.CacheSync.Methods, r.CacheSync.Note = methods(r.CacheSync, apiCur != nil)
	sortRows(&r, rows)
	d.r = r
	return d
}

// Targets are the draft's targets (its copy of the input's), in the input's order.
func (d *Draft) Targets() []model.Target { return d.in.Targets }

// SetGoroutines makes p the goroutine dump of the i-th of the draft's targets: the findings
// judged after read it, and the report shows it.
func (d *Draft) SetGoroutines(i int, p *goroutines.Profile) {
	d.in.Targets[i].Goroutines = p
	if j, ok := d.judgedOf[i]; ok {
		d.judged[j].Goroutines = p
	}
}

// Judge runs every rule over the draft's targets and returns the findings, worst first,
// none set apart.
func (d *Draft) Judge() []findings.Finding {
	return findings.Evaluate(d.judged, model.Elections(d.reps, d.in.Leases), d.lags, d.in.Thresholds)
}

// Finish is the report with fs, the findings Judge returned: those suppress accepts set
// apart (nil sets none apart), the goroutine dumps read, and the counts and verdict.
func (d *Draft) Finish(fs []findings.Finding, accept func([]findings.Finding) ([]findings.Finding, *suppress.Accepted)) view.Report {
	r := d.r
	if accept != nil {
		var a *suppress.Accepted
		fs, a = accept(fs)
		r.Suppressions = suppressions(a)
	}
	if len(fs) > 0 {
		r.Findings = fs
	}
	r.Goroutines = goroutineRows(d.in.Targets)
	r.Logs = logRows(d.in.Targets)
	if f := fleet(d.in.Targets, d.readIDs); f != nil {
		of, _ := Clusters(d.in.Targets)
		r.SetFleet(f, of)
	}
	r.Recount()
	return r
}

// suppressions is the report's view of what a suppression accepted; nil for nil.
func suppressions(a *suppress.Accepted) *view.Suppressions {
	if a == nil {
		return nil
	}
	s := &view.Suppressions{Findings: make([]view.Suppressed, len(a.Findings)), Expired: a.Expired}
	for i, f := range a.Findings {
		s.Findings[i] = view.Suppressed{Finding: f.Finding, Reason: f.Reason, Source: f.Source}
	}
	return s
}

// readTarget reads a target into the model (findings.Read); ok is false when it gave no
// sample. With one sample the figures are over the process's lifetime.
func readTarget(m model.Target, th findings.Thresholds, objs *objects.View) (read, bool) {
	ft, ok := findings.Read(m, th, objs)
	return read{in: m, prev: ft.Prev, cur: ft.Cur, window: ft.Window, queues: ft.Queues, kind: ft.Kind, restart: ft.Restart, notes: ft.Notes}, ok
}

// Replicas are the targets read that are replicas of a workload, with each one's
// leadership as of the last sample: what model.UnsureLeader needs to tell
// which namespaces' Leases to read for Input.Leases.
func Replicas(targets []model.Target) []model.Replica {
	var out []model.Replica
	for _, m := range targets {
		cur := m.Last()
		if cur == nil {
			continue
		}
		if rep, ok := replicaOf(m, cur); ok {
			out = append(out, rep)
		}
	}
	return out
}

// replicaOf is the replica a target read is, when it is a pod of a workload.
func replicaOf(t model.Target, cur *health.Snapshot) (model.Replica, bool) {
	if t.Pod == nil || t.Target.Workload == "" {
		return model.Replica{}, false
	}
	return model.ReplicaOf(t.Target.ID(), t.Target.Cluster, t.Target.Namespace, t.Target.Name, t.Target.Workload, cur), true
}

func findingsTarget(rd read, in Input) findings.Target {
	ft := findings.Target{ID: rd.in.ID(), Kind: rd.kind, Prev: rd.prev, Cur: rd.cur, Window: rd.window, Restart: rd.restart, Queues: rd.queues,
		Objects: in.Objects, Events: in.WarningEvents, Admission: in.Admission, FlowSchemas: in.FlowSchemas, Workers: in.Workers, Goroutines: rd.in.Goroutines, Log: rd.in.Log, Flagz: rd.in.Flagz}
	if p := rd.in.Pod; p != nil {
		served, _ := rd.in.Served()
		ft.Pod = &findings.Pod{Namespace: p.Namespace, Name: p.Name, Container: served.Name, ServiceAccount: p.Spec.ServiceAccountName,
			Terminations: terminations(p, in.Now), MemoryLimitBytes: quantity(served.Resources.Limits, corev1.ResourceMemory),
			CPULimitCores: quantity(served.Resources.Limits, corev1.ResourceCPU),
			Image:         served.Image, Args: slices.Concat(served.Command, served.Args), Env: envOf(served, rd.in.WatchEnv[served.Name])}
	} else if in.MemoryLimitBytes > 0 && rd.in.Target.Kind != target.KindAPIServer {
		ft.Pod = &findings.Pod{Name: rd.in.ID(), MemoryLimitBytes: in.MemoryLimitBytes}
	}
	if ft.Pod != nil && ft.Pod.MemoryLimitBytes == 0 && in.MemoryLimitBytes > 0 {
		ft.Pod.MemoryLimitBytes = in.MemoryLimitBytes
	}
	return ft
}

// podRows are the controller pods, each with the flags its process said it runs with when
// its /flagz was read (those of a target read through the pod).
func podRows(pods []PodInput, targets []model.Target, now time.Time) []view.Pod {
	flagz := map[string]*knobs.Flagz{}
	for _, t := range targets {
		if t.Pod != nil && t.Flagz != nil {
			flagz[t.Pod.Namespace+"/"+t.Pod.Name] = t.Flagz
		}
	}
	out := []view.Pod{}
	for _, pi := range pods {
		p := pi.Pod
		restarts, last := containerHistory(p)
		row := view.Pod{Namespace: p.Namespace, Name: p.Name, Node: p.Spec.NodeName, Phase: string(p.Status.Phase),
			Restarts: restarts, LastTermination: last, Scraped: pi.Scraped, Note: pi.Note, Flagz: flagz[p.Namespace+"/"+p.Name]}
		for _, c := range p.Status.Conditions {
			if c.Type == corev1.PodReady {
				row.Ready = c.Status == corev1.ConditionTrue
			}
		}
		if p.Status.StartTime != nil {
			row.AgeSeconds = math.Max(0, now.Sub(p.Status.StartTime.Time).Seconds())
		} else {
			row.AgeSeconds = math.Max(0, now.Sub(p.CreationTimestamp.Time).Seconds())
		}
		out = append(out, row)
	}
	return out
}

// containerHistory sums restarts and returns the last termination reason of any container.
func containerHistory(p *corev1.Pod) (int32, string) {
	var restarts int32
	var last string
	var lastAt time.Time
	for _, cs := range p.Status.ContainerStatuses {
		restarts += cs.RestartCount
		if t := cs.LastTerminationState.Terminated; t != nil && !t.FinishedAt.Time.Before(lastAt) {
			last, lastAt = t.Reason, t.FinishedAt.Time
		}
	}
	return restarts, last
}

// terminations are the last terminations of the pod's containers that restarted, newest
// first, with how long ago each ended.
func terminations(p *corev1.Pod, now time.Time) []findings.Termination {
	var out []findings.Termination
	var at []time.Time
	for _, cs := range p.Status.ContainerStatuses {
		t := cs.LastTerminationState.Terminated
		if cs.RestartCount == 0 && t == nil {
			continue
		}
		term := findings.Termination{Container: cs.Name, Restarts: cs.RestartCount}
		var when time.Time
		if t != nil {
			term.Reason, when = t.Reason, t.FinishedAt.Time
			if !when.IsZero() && now.After(when) {
				term.Ago = now.Sub(when)
			}
		}
		i := sort.Search(len(at), func(i int) bool { return at[i].Before(when) })
		out = slices.Insert(out, i, term)
		at = slices.Insert(at, i, when)
	}
	return out
}

func quantity(l corev1.ResourceList, name corev1.ResourceName) float64 {
	if q, ok := l[name]; ok {
		return q.AsApproximateFloat64()
	}
	return 0
}

func resourceRow(rd read, in Input) view.Resources {
	id := rd.in.Target.ID()
	p := rd.cur.Process
	row := view.Resources{Target: id, ResidentMemoryBytes: view.Num(p.ResidentMemoryBytes), HeapBytes: view.Num(p.HeapBytes)}
	if rd.prev != nil && rd.window > 0 {
		row.CPUCores = view.Num(health.Increase(rd.prev.Process.CPUSeconds, p.CPUSeconds) / rd.window.Seconds())
	}
	limit := in.MemoryLimitBytes
	if pod := rd.in.Pod; pod != nil {
		c, _ := rd.in.Served()
		pos := func(v float64) *float64 {
			if v > 0 {
				return &v
			}
			return nil
		}
		row.MemoryRequestBytes = pos(quantity(c.Resources.Requests, corev1.ResourceMemory))
		row.MemoryLimitBytes = pos(quantity(c.Resources.Limits, corev1.ResourceMemory))
		row.CPURequestCores = pos(quantity(c.Resources.Requests, corev1.ResourceCPU))
		row.CPULimitCores = pos(quantity(c.Resources.Limits, corev1.ResourceCPU))
		if row.MemoryLimitBytes != nil {
			limit = *row.MemoryLimitBytes
		}
		_, row.LastTermination = containerHistory(pod)
		if u, ok := in.Usage[pod.Namespace+"/"+pod.Name]; ok {
			row.UsageMemoryBytes, row.UsageCPUCores = view.Num(u.MemoryBytes), view.Num(u.CPUCores)
		}
	} else if rd.in.Target.Kind == target.KindAPIServer {
		limit = 0
	}
	if limit > 0 {
		if row.MemoryLimitBytes == nil {
			row.MemoryLimitBytes = view.Num(limit)
		}
		row.MemoryOfLimit = view.Num(p.ResidentMemoryBytes / limit)
	}
	return row
}

func generationRows(gs []cachesync.GenerationReport) []view.GenerationLag {
	out := []view.GenerationLag{}
	for _, g := range gs {
		row := view.GenerationLag{Resource: g.Resource, Checked: g.Checked, Lagging: len(g.Lagging), StillLagging: g.StillLagging, Error: g.Error}
		for i, l := range g.Lagging {
			if i == 5 {
				break
			}
			row.Examples = append(row.Examples, fmt.Sprintf("%s/%s (generation %d, observed %d)", l.Namespace, l.Name, l.Generation, l.ObservedGeneration))
		}
		out = append(out, row)
	}
	return out
}

// methods says which cache-sync-lag methods applied, and why one did not.
func methods(c view.CacheSync, haveAPIServer bool) ([]string, string) {
	var m []string
	seen := map[string]bool{}
	for _, i := range c.Informers {
		if !seen[i.Method] {
			seen[i.Method] = true
			m = append(m, i.Method)
		}
	}
	var note string
	switch {
	case len(c.Informers) == 0:
		note = "no target exports informer_* metrics (client-go >= 1.36 named informers): resource-version lag cannot be measured"
	case !haveAPIServer:
		note = "the API server's metrics were not read (not a target, or its read failed): informer queues and latency only"
	}
	if len(c.Generations) > 0 {
		m = append(m, string(cachesync.MethodGeneration))
	}
	if len(c.Metrics) > 0 {
		m = append(m, string(cachesync.MethodMetric))
	}
	return m, note
}

// sortRows orders the pods by name, and the rows of the queues in sections 2 (deepest
// first) and 4 (busiest first) and of capacity (most used first).
func sortRows(r *view.Report, rows []view.Queue) {
	sort.SliceStable(r.Pods, func(i, j int) bool {
		return r.Pods[i].Namespace+"/"+r.Pods[i].Name < r.Pods[j].Namespace+"/"+r.Pods[j].Name
	})
	depth := func(p *float64) float64 {
		if p == nil {
			return -1
		}
		return *p
	}
	order := func(before func(a, b *view.Queue) bool) []int {
		idx := make([]int, len(rows))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(i, j int) bool { return before(&rows[idx[i]], &rows[idx[j]]) })
		return idx
	}
	for _, i := range order(func(a, b *view.Queue) bool { return depth(a.Depth) > depth(b.Depth) }) {
		r.Backlog = append(r.Backlog, rows[i].Backlog())
	}
	for _, i := range order(func(a, b *view.Queue) bool { return a.Finished > b.Finished }) {
		r.Events = append(r.Events, rows[i].Events())
	}
	sort.SliceStable(r.Capacity, func(i, j int) bool { return depth(r.Capacity[i].Utilisation) > depth(r.Capacity[j].Utilisation) })
}
