package run

import (
	"context"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/events"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/cachesync"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// deadlines records the deadline of the context of every call it is told of.
type deadlines struct {
	mu  sync.Mutex
	got map[string][]time.Time
}

func (d *deadlines) saw(call string, ctx context.Context) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.got == nil {
		d.got = map[string][]time.Time{}
	}
	at, ok := ctx.Deadline()
	if !ok {
		at = time.Time{}
	}
	d.got[call] = append(d.got[call], at)
}

// check fails unless every call in want was made, and every call made saw the deadline at.
func (d *deadlines) check(t *testing.T, at time.Time, want ...string) {
	t.Helper()
	for _, call := range want {
		if len(d.got[call]) == 0 {
			t.Errorf("%s was not called", call)
		}
	}
	for call, ats := range d.got {
		for _, got := range ats {
			if !got.Equal(at) {
				t.Errorf("%s was called with the deadline %v, want the run's %v", call, got, at)
			}
		}
	}
}

// clockSource is firstSampleSource, a Prefetcher, recording its calls' deadlines.
type clockSource struct {
	firstSampleSource
	d *deadlines
}

func (s *clockSource) Prefetch(ctx context.Context, _ source.Options) { s.d.saw("Prefetch", ctx) }

func (s *clockSource) Open(ctx context.Context) (*source.Inventory, error) {
	s.d.saw("Open", ctx)
	return s.firstSampleSource.Open(ctx)
}

func (s *clockSource) Read(ctx context.Context, o source.Options) []source.Result {
	s.d.saw("Read", ctx)
	return s.firstSampleSource.Read(ctx, o)
}

// clockCluster is watchCluster, recording its calls' deadlines.
type clockCluster struct {
	watchCluster
	d *deadlines
}

func (c *clockCluster) Generations(ctx context.Context, ns string, r []schema.GroupVersionResource) []cachesync.GenerationReport {
	c.d.saw("Generations", ctx)
	return nil
}

func (c *clockCluster) Objects(ctx context.Context, _ string, _ []objects.Controller, _ map[string]schema.GroupKind) objects.View {
	c.d.saw("Objects", ctx)
	return objects.View{}
}

func (c *clockCluster) Events(ctx context.Context, _ string, _ []objects.Controller, _ map[string]schema.GroupKind, _ time.Time) events.View {
	c.d.saw("Events", ctx)
	return events.View{}
}

func (c *clockCluster) Usage(ctx context.Context, _ []string) (map[string]source.PodUsage, string) {
	c.d.saw("Usage", ctx)
	return nil, ""
}

func (c *clockCluster) WatchChanges(ctx context.Context, ns string, cs []objects.Controller, o map[string]schema.GroupKind, objective time.Duration) {
	c.d.saw("WatchChanges", ctx)
}

// One clock per run: every call to the source and to the cluster, before the targets are
// read and after, carries the one deadline the run set at its start, its clock's Start plus
// --deadline, whenever it is made.
func TestEveryCallOfARunHasItsOneDeadline(t *testing.T) {
	start := time.Now().Truncate(time.Second)
	clock := source.Clock{Start: start, Limit: time.Hour}
	for _, verb := range []string{"queues", "report"} {
		t.Run(verb, func(t *testing.T) {
			d := &deadlines{}
			c := &clockCluster{d: d}
			src := &clockSource{firstSampleSource: firstSampleSource{t: t, cluster: &c.watchCluster, open: c}, d: d}
			env := Env{Source: src, Clock: clock}
			var err error
			want := []string{"Prefetch", "Open", "Read"}
			switch verb {
			case "queues":
				_, err = QueuesWith(context.Background(), QueuesConfig{Read: source.Options{Interval: time.Second}, Thresholds: findings.DefaultThresholds()}, env)
			case "report":
				_, err = ReportWith(context.Background(), ReportConfig{Read: source.Options{Interval: time.Second}, Thresholds: findings.DefaultThresholds()}, env)
				want = append(want, "Generations", "Objects", "Events", "Usage", "WatchChanges")
			}
			if err != nil {
				t.Fatal(err)
			}
			d.check(t, start.Add(time.Hour), want...)
		})
	}
}
