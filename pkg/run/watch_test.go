package run

import (
	"context"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/events"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/cachesync"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// watchCluster records the controllers it is asked to watch.
type watchCluster struct {
	source.Cluster
	watched []objects.Controller
	// objectives are the spec-latency objectives the watches were asked to count at.
	objectives []time.Duration
}

func (c *watchCluster) WatchChanges(_ context.Context, _ string, cs []objects.Controller, _ map[string]schema.GroupKind, objective time.Duration) {
	c.watched = append(c.watched, cs...)
	c.objectives = append(c.objectives, objective)
}

func (c *watchCluster) Generations(context.Context, string, []schema.GroupVersionResource) []cachesync.GenerationReport {
	return nil
}

func (c *watchCluster) Objects(context.Context, string, []objects.Controller, map[string]schema.GroupKind) objects.View {
	return objects.View{}
}

func (c *watchCluster) WorkloadAnnotation(context.Context, string, []string) (map[string]string, []string) {
	return nil, nil
}

func (c *watchCluster) Events(context.Context, string, []objects.Controller, map[string]schema.GroupKind, time.Time) events.View {
	return events.View{}
}

func (c *watchCluster) Usage(context.Context, []string) (map[string]source.PodUsage, string) {
	return nil, ""
}

// firstSampleSource hands each target's first sample to Options.First, as a live read does,
// then returns both samples: ops/busy's queue holds 5 items, ops/idle's none.
type firstSampleSource struct {
	t       *testing.T
	cluster *watchCluster
	// open, when set, is the cluster the inventory gives instead of cluster.
	open source.Cluster
}

func (s *firstSampleSource) Open(context.Context) (*source.Inventory, error) {
	tg := func(name string) target.Target {
		return target.Target{Kind: target.KindPod, Namespace: "ops", Name: name, Port: 8080}
	}
	var c source.Cluster = s.cluster
	if s.open != nil {
		c = s.open
	}
	return &source.Inventory{Targets: []target.Target{tg("busy"), tg("idle")}, Cluster: c}, nil
}

func (s *firstSampleSource) Read(_ context.Context, o source.Options) []source.Result {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	inv, _ := s.Open(context.Background())
	var out []source.Result
	for i, tg := range inv.Targets {
		depth := 5.0
		if i == 1 {
			depth = 0
		}
		r := source.Result{Target: tg, Samples: []source.Sample{{Families: queuePage(s.t, depth, 100), Time: now}}}
		if o.First != nil {
			o.First(r)
		}
		r.Samples = append(r.Samples, source.Sample{Families: queuePage(s.t, depth, 110), Time: now.Add(o.Interval)})
		r.Window = o.Interval
		out = append(out, r)
	}
	return out
}

// The report watches the kinds of every controller from its target's first sample, the idle
// ones too: their spec latency is judged, and a healthy queue is mostly empty then. The
// watches count at the spec-latency objective.
func TestReportWatchesEveryController(t *testing.T) {
	c := &watchCluster{}
	src := &firstSampleSource{t: t, cluster: c}
	th := findings.DefaultThresholds()
	th.TargetSpecLatency = findings.Duration(3 * time.Second)
	_, err := ReportWith(context.Background(), ReportConfig{Read: source.Options{Interval: 5 * time.Second}, Thresholds: th}, Env{Source: src})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.watched) != 2 || c.watched[0].Target != "ops/busy:8080" || c.watched[1].Target != "ops/idle:8080" || c.watched[1].Name != "widget" {
		t.Errorf("watched %+v, want the widget controllers of ops/busy:8080 and ops/idle:8080", c.watched)
	}
	for _, o := range c.objectives {
		if o != 3*time.Second {
			t.Errorf("watches asked to count at %v, want the objective 3s", c.objectives)
			break
		}
	}
}
