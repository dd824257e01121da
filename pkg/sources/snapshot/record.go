package snapshot

import (
	"context"
	"encoding/json"
	"sort"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/apiserver"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/events"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/goroutines"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/logs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/cachesync"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// Recorder is a source that reads through another and keeps what it gave: the inventory,
// every page as read, and the cluster's answers. Use it where the live source would be used,
// then call Snapshot.
type Recorder struct {
	src     source.Source
	inv     *source.Inventory
	cluster *recordingCluster
	results []source.Result
	// profiles are the goroutine dumps read, by target ID.
	mu       sync.Mutex
	profiles map[string]*goroutines.Profile
	// logs are what was extracted of the targets' logs, by target ID.
	logs map[string]*logs.Log
	// flagz are the flags read of the targets' /flagz, by target ID.
	flagz map[string]*knobs.Flagz
}

var _ source.Source = (*Recorder)(nil)

// Record returns a recorder reading through src.
func Record(src source.Source) *Recorder { return &Recorder{src: src} }

// Open opens the live source; its cluster, if any, answers through the recorder.
func (r *Recorder) Open(ctx context.Context) (*source.Inventory, error) {
	if r.inv != nil {
		return r.inv, nil
	}
	inv, err := r.src.Open(ctx)
	if err != nil {
		return nil, err
	}
	cp := *inv
	if inv.Cluster != nil {
		r.cluster = &recordingCluster{live: inv.Cluster}
		cp.Cluster = r.cluster
	}
	r.inv = &cp
	return r.inv, nil
}

// Read reads the live source keeping every page's bytes.
func (r *Recorder) Read(ctx context.Context, o source.Options) []source.Result {
	o.KeepRaw = true
	r.results = r.src.Read(ctx, o)
	return r.results
}

// Snapshot assembles what was read. In a cluster it also lists the Leases of all the pods'
// namespaces and the metrics API's usage when the run did not ask for them, so that a
// snapshot always holds them. m is the manifest, filled but for its members.
func (r *Recorder) Snapshot(ctx context.Context, m Manifest) *Snapshot {
	s := &Snapshot{Manifest: m, Pages: map[string][]byte{}}
	if r.inv == nil {
		return s
	}
	s.Inventory = Inventory{Targets: redactTargets(r.inv.Targets), Skipped: r.inv.Skipped,
		Warnings: r.inv.Warnings, Pods: map[string]*corev1.Pod{}}
	for k, p := range r.inv.Pods {
		s.Inventory.Pods[k] = Strip(p)
	}
	for _, u := range r.inv.Unreadable {
		s.Inventory.Unreadable = append(s.Inventory.Unreadable, storedResult(u))
	}
	for i, res := range r.results {
		sr := storedResult(res)
		r.mu.Lock()
		sr.Goroutines = r.profiles[res.ID()]
		sr.Log = r.logs[res.ID()]
		sr.Flagz = r.flagz[res.ID()]
		r.mu.Unlock()
		for j, smp := range res.Samples {
			name := pageName(i, j)
			sr.Samples = append(sr.Samples, Sample{Time: smp.Time, Page: name})
			s.Pages[name] = smp.Raw
		}
		s.Results = append(s.Results, sr)
	}
	if r.cluster != nil {
		namespaces := podNamespaces(r.inv)
		c := r.cluster
		c.mu.Lock()
		usageAsked := c.usageAsked
		c.mu.Unlock()
		if !usageAsked {
			c.Usage(ctx, namespaces)
		}
		c.LeaseHolders(ctx, namespaces)
		s.Cluster = c.answers()
	}
	return s
}

// storedResult is a result without its samples, its target and errors free of credentials.
func storedResult(res source.Result) Result {
	sr := Result{Target: redactTargets([]target.Target{res.Target})[0], Window: res.Window, ResetsCounted: res.ResetsCounted, Notes: res.Notes,
		WatchEnv: res.WatchEnv}
	if res.Pod != nil {
		sr.Pod = res.Pod.Namespace + "/" + res.Pod.Name
	}
	if res.Err != nil {
		sr.Error = res.Err.Error()
	}
	return sr
}

// redactTargets drops user information and query values from URL targets; the ID stays.
func redactTargets(ts []target.Target) []target.Target {
	out := append([]target.Target(nil), ts...)
	for i := range out {
		if out[i].Kind == target.KindURL {
			out[i].Name = target.RedactURL(out[i].Name)
		}
	}
	return out
}

func podNamespaces(inv *source.Inventory) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range inv.Pods {
		if p != nil && !seen[p.Namespace] {
			seen[p.Namespace] = true
			out = append(out, p.Namespace)
		}
	}
	sort.Strings(out)
	return out
}

// recordingCluster asks the live cluster and keeps a copy of every answer, taken when it is
// given (the run may change what it got afterwards).
type recordingCluster struct {
	live        source.Cluster
	mu          sync.Mutex
	gens        [][]cachesync.GenerationReport
	view        *objects.View
	usage       map[string]source.PodUsage
	usageNote   string
	usageAsked  bool
	leases      map[model.Holder]bool
	workloads   map[string]map[string]string
	wwarnings   []string
	admission   *apiserver.Admission
	ownership   *apiserver.Ownership
	flowSchemas *apiserver.FlowControl
	events      *events.View
}

func (c *recordingCluster) Generations(ctx context.Context, ns string, resources []schema.GroupVersionResource) []cachesync.GenerationReport {
	g := c.live.Generations(ctx, ns, resources)
	cp := copyOf(g)
	c.mu.Lock()
	c.gens = append(c.gens, cp)
	c.mu.Unlock()
	return g
}

func (c *recordingCluster) Objects(ctx context.Context, ns string, controllers []objects.Controller, overrides map[string]schema.GroupKind) objects.View {
	v := c.live.Objects(ctx, ns, controllers, overrides)
	cp := copyOf(v)
	c.mu.Lock()
	c.view = &cp
	c.mu.Unlock()
	return v
}

// WatchChanges has the live cluster count; the counts are recorded with the objects view.
func (c *recordingCluster) WatchChanges(ctx context.Context, ns string, controllers []objects.Controller, overrides map[string]schema.GroupKind, objective time.Duration) {
	c.live.WatchChanges(ctx, ns, controllers, overrides, objective)
}

func (c *recordingCluster) Usage(ctx context.Context, namespaces []string) (map[string]source.PodUsage, string) {
	u, note := c.live.Usage(ctx, namespaces)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.usageAsked = true
	if c.usage == nil {
		c.usage = map[string]source.PodUsage{}
	}
	for k, v := range u {
		c.usage[k] = v
	}
	if note != "" {
		c.usageNote = note
	}
	return u, note
}

func (c *recordingCluster) FlowSchemas(ctx context.Context) apiserver.FlowControl {
	v := c.live.FlowSchemas(ctx)
	cp := copyOf(v)
	c.mu.Lock()
	c.flowSchemas = &cp
	c.mu.Unlock()
	return v
}

func (c *recordingCluster) Admission(ctx context.Context) apiserver.Admission {
	v := c.live.Admission(ctx)
	cp := copyOf(v)
	c.mu.Lock()
	c.admission = &cp
	c.mu.Unlock()
	return v
}

func (c *recordingCluster) OwnedKinds(ctx context.Context, hooks []apiserver.Webhook, owners []apiserver.Owner) apiserver.Ownership {
	o := c.live.OwnedKinds(ctx, hooks, owners)
	cp := copyOf(o)
	c.mu.Lock()
	c.ownership = &cp
	c.mu.Unlock()
	return o
}

func (c *recordingCluster) Events(ctx context.Context, ns string, controllers []objects.Controller, overrides map[string]schema.GroupKind, since time.Time) events.View {
	v := c.live.Events(ctx, ns, controllers, overrides, since)
	cp := copyOf(v)
	c.mu.Lock()
	c.events = &cp
	c.mu.Unlock()
	return v
}

func (c *recordingCluster) LeaseHolders(ctx context.Context, namespaces []string) []model.Holder {
	hs := c.live.LeaseHolders(ctx, namespaces)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.leases == nil {
		c.leases = map[model.Holder]bool{}
	}
	for _, h := range hs {
		c.leases[h] = true
	}
	return hs
}

func (c *recordingCluster) WorkloadAnnotation(ctx context.Context, key string, workloads []string) (map[string]string, []string) {
	values, warnings := c.live.WorkloadAnnotation(ctx, key, workloads)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.workloads == nil {
		c.workloads = map[string]map[string]string{}
	}
	if c.workloads[key] == nil {
		c.workloads[key] = map[string]string{}
	}
	for w, v := range values {
		c.workloads[key][w] = v
	}
	c.wwarnings = append(c.wwarnings, warnings...)
	return values, warnings
}

func (c *recordingCluster) answers() *ClusterAnswers {
	c.mu.Lock()
	defer c.mu.Unlock()
	a := &ClusterAnswers{Generations: c.gens, Objects: c.view, Usage: c.usage, UsageNote: c.usageNote,
		WorkloadAnnotations: c.workloads, WorkloadWarnings: c.wwarnings, Admission: c.admission, Ownership: c.ownership, FlowSchemas: c.flowSchemas, WarningEvents: c.events}
	for h := range c.leases {
		a.Leases = append(a.Leases, h)
	}
	sort.Slice(a.Leases, func(i, j int) bool {
		x, y := a.Leases[i], a.Leases[j]
		if x.Namespace != y.Namespace {
			return x.Namespace < y.Namespace
		}
		return x.Lease < y.Lease
	})
	return a
}

// copyOf is a deep copy of v made through JSON, the form the snapshot stores it in.
func copyOf[T any](v T) T {
	var cp T
	if b, err := json.Marshal(v); err == nil {
		_ = json.Unmarshal(b, &cp)
	}
	return cp
}
