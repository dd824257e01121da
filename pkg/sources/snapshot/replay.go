package snapshot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/apiserver"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/events"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/cachesync"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// Replay is a source that gives what a snapshot holds: the inventory, each target's pages
// parsed anew (with the families the command keeps) at the times they were read, and, when a
// cluster was read, the cluster's answers.
type Replay struct {
	s *Snapshot
	// once builds ix, the look-up of logs and dumps by target.
	once sync.Once
	ix   *replayIndex
}

var _ source.Source = (*Replay)(nil)

// NewReplay returns the source of a snapshot.
func NewReplay(s *Snapshot) *Replay { return &Replay{s: s} }

// Open gives the inventory the snapshot holds.
func (p *Replay) Open(context.Context) (*source.Inventory, error) {
	in := p.s.Inventory
	inv := &source.Inventory{Targets: in.Targets, Skipped: in.Skipped, Pods: in.Pods, Warnings: in.Warnings}
	for _, u := range in.Unreadable {
		inv.Unreadable = append(inv.Unreadable, p.result(u, nil))
	}
	// Where the pods' WATCH_NAMESPACE(S) resolved to, as each result kept it.
	for _, r := range append(slices.Clone(p.s.Results), in.Unreadable...) {
		if r.Pod != "" && len(r.WatchEnv) > 0 {
			if inv.WatchEnv == nil {
				inv.WatchEnv = map[string]map[string]*knobs.WatchEnv{}
			}
			inv.WatchEnv[r.Pod] = r.WatchEnv
		}
	}
	if p.s.Cluster != nil {
		inv.Cluster = &replayCluster{a: p.s.Cluster}
	}
	return inv, nil
}

// Read parses the stored pages, one Result per stored result, in the order they were read.
// It stops parsing when ctx ends (the run's deadline), as a live reading stops: the results
// not parsed by then keep their target and say why they hold no sample.
func (p *Replay) Read(ctx context.Context, o source.Options) []source.Result {
	sel := parse.NewReducingSelector(o.Keep, o.Reduce)
	out := make([]source.Result, 0, len(p.s.Results))
	for _, r := range p.s.Results {
		var res source.Result
		switch {
		case ctx.Err() != nil:
			res = p.result(r, nil)
			res.Window = 0
			if res.Err == nil {
				res.Err = stopped(ctx)
			}
		default:
			res = p.result(r, sel)
			if o.KeepRaw {
				// A snapshot of a snapshot keeps the pages as they were read.
				for i := range res.Samples {
					res.Samples[i].Raw = p.s.Pages[r.Samples[i].Page]
				}
			}
		}
		out = append(out, res)
		if o.Done != nil {
			o.Done()
		}
	}
	return out
}

// result rebuilds one Result; sel nil leaves its samples out.
func (p *Replay) result(r Result, sel *parse.Selector) source.Result {
	res := source.Result{Target: r.Target, Pod: p.s.Inventory.Pods[r.Pod], WatchEnv: r.WatchEnv, Window: r.Window, ResetsCounted: r.ResetsCounted, Notes: r.Notes}
	if r.Error != "" {
		res.Err = errors.New(r.Error)
	}
	if sel == nil {
		return res
	}
	for _, smp := range r.Samples {
		page, err := parse.ParseSelected(r.Target.ID(), bytes.NewReader(p.s.Pages[smp.Page]), sel)
		if err != nil {
			// The page parsed when it was read: the snapshot was changed since.
			res.Err = fmt.Errorf("snapshot page %s: %w", smp.Page, err)
			break
		}
		res.Samples = append(res.Samples, source.Sample{Families: page.Families, Time: smp.Time})
	}
	if len(res.Samples) < 2 {
		res.Window = 0
	}
	return res
}

// replayCluster answers as the cluster answered the run.
type replayCluster struct {
	a    *ClusterAnswers
	gens int
}

// Generations gives the stored answers in the order they were given; past them, the last.
func (c *replayCluster) Generations(context.Context, string, []schema.GroupVersionResource) []cachesync.GenerationReport {
	if len(c.a.Generations) == 0 {
		return nil
	}
	i := min(c.gens, len(c.a.Generations)-1)
	c.gens++
	return copyOf(c.a.Generations[i])
}

// Objects gives the stored view, or says it was not taken.
func (c *replayCluster) Objects(context.Context, string, []objects.Controller, map[string]schema.GroupKind) objects.View {
	if c.a.Objects == nil {
		return objects.View{Notes: []string{"the snapshot holds no objects view"}}
	}
	return copyOf(*c.a.Objects)
}

// Usage gives the stored usage of the pods of the namespaces.
// WatchChanges has nothing to watch: the snapshot's objects view holds the changes counted
// when it was taken.
func (c *replayCluster) WatchChanges(context.Context, string, []objects.Controller, map[string]schema.GroupKind, time.Duration) {
}

// WorkloadAnnotation gives the values the snapshot recorded for the workloads asked.
func (c *replayCluster) WorkloadAnnotation(_ context.Context, key string, workloads []string) (map[string]string, []string) {
	values := map[string]string{}
	for _, w := range workloads {
		if v, ok := c.a.WorkloadAnnotations[key][w]; ok {
			values[w] = v
		}
	}
	return values, c.a.WorkloadWarnings
}

func (c *replayCluster) Usage(_ context.Context, namespaces []string) (map[string]source.PodUsage, string) {
	if c.a.Usage == nil {
		return nil, c.a.UsageNote
	}
	out := map[string]source.PodUsage{}
	for k, u := range c.a.Usage {
		ns, _, _ := strings.Cut(k, "/")
		if slices.Contains(namespaces, ns) {
			out[k] = u
		}
	}
	return out, c.a.UsageNote
}

// FlowSchemas gives the stored FlowSchemas, or says they were not read.
func (c *replayCluster) FlowSchemas(context.Context) apiserver.FlowControl {
	if c.a.FlowSchemas == nil {
		return apiserver.FlowControl{Notes: []string{"the snapshot holds no FlowSchemas"}}
	}
	return copyOf(*c.a.FlowSchemas)
}

// OwnedKinds gives the stored probe's answer; a snapshot that holds none found no owned kind.
func (c *replayCluster) OwnedKinds(context.Context, []apiserver.Webhook, []apiserver.Owner) apiserver.Ownership {
	if c.a.Ownership == nil {
		return apiserver.Ownership{}
	}
	return copyOf(*c.a.Ownership)
}

// Admission gives the stored webhook configurations, or says they were not read.
func (c *replayCluster) Admission(context.Context) apiserver.Admission {
	if c.a.Admission == nil {
		return apiserver.Admission{Notes: []string{"the snapshot holds no admission webhook configurations"}}
	}
	return copyOf(*c.a.Admission)
}

// Events gives the stored Warning events, or says the snapshot holds none (one taken before
// they were recorded).
func (c *replayCluster) Events(context.Context, string, []objects.Controller, map[string]schema.GroupKind, time.Time) events.View {
	if c.a.WarningEvents == nil {
		return events.View{Groups: []events.Group{}, Notes: []string{"the snapshot holds no Warning events (taken by an older version, or without a cluster's objects)"}}
	}
	return copyOf(*c.a.WarningEvents)
}

// LeaseHolders gives the stored holders of the namespaces' Leases.
func (c *replayCluster) LeaseHolders(_ context.Context, namespaces []string) []model.Holder {
	var out []model.Holder
	for _, h := range c.a.Leases {
		if slices.Contains(namespaces, h.Namespace) {
			out = append(out, h)
		}
	}
	return out
}
