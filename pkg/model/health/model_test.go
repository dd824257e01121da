package health

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/testpages"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
)

func load(t *testing.T, name string) *Snapshot {
	t.Helper()
	p := testpages.Parse(t, name, Wanted)
	return FromFamilies(p.Families, p.SampleTime)
}

func loadText(t *testing.T, page string) *Snapshot {
	t.Helper()
	p, err := parse.Parse("inline", strings.NewReader(page), Wanted)
	if err != nil {
		t.Fatal(err)
	}
	return FromFamilies(p.Families, p.SampleTime)
}

func find(t *testing.T, s []QueueStats, queue string) QueueStats {
	t.Helper()
	for _, q := range s {
		if q.Queue == queue {
			return q
		}
	}
	t.Fatalf("queue %q not in %d stats", queue, len(s))
	return QueueStats{}
}

func TestSnapshotFromFixtures(t *testing.T) {
	tests := []struct {
		page        string
		minQueues   int
		queue       string
		controller  string
		depth       float64
		controllers int
		watchCache  bool
		informers   bool
	}{
		{page: "kube-controller-manager-1.prom.gz", minQueues: 20, queue: "garbage_collector_graph_changes", controller: "", informers: true},
		{page: "controller-runtime-1.prom", minQueues: 3, queue: "widget", controller: "widget", depth: 0, controllers: 2},
		{page: "controller-runtime-2.prom", minQueues: 3, queue: "gadget", controller: "gadget", depth: 120, controllers: 2},
		{page: "kube-apiserver-1.prom.gz", minQueues: 5, queue: "APIServiceRegistrationController", watchCache: true},
	}
	for _, tt := range tests {
		t.Run(tt.page, func(t *testing.T) {
			s := load(t, tt.page)
			if len(s.Queues) < tt.minQueues {
				t.Fatalf("%d queues, want at least %d", len(s.Queues), tt.minQueues)
			}
			q := s.Queues[tt.queue]
			if q == nil {
				t.Fatalf("queue %q missing", tt.queue)
			}
			if q.Controller != tt.controller {
				t.Errorf("controller = %q, want %q", q.Controller, tt.controller)
			}
			if q.QueueDuration == nil || q.WorkDuration == nil || math.IsNaN(q.Adds) || math.IsNaN(q.Longest) {
				t.Errorf("queue %q lacks series: %+v", tt.queue, q)
			}
			if tt.controllers > 0 && (len(s.Controllers) != tt.controllers || tt.depth != q.Depth) {
				t.Errorf("controllers = %d, depth = %v; want %d, %v", len(s.Controllers), q.Depth, tt.controllers, tt.depth)
			}
			if tt.watchCache != (len(s.WatchCache) > 0) {
				t.Errorf("watch cache entries = %d", len(s.WatchCache))
			}
			if tt.informers != (len(s.Informers) > 0) {
				t.Errorf("informers = %d", len(s.Informers))
			}
			if math.IsNaN(s.Process.ResidentMemoryBytes) || math.IsNaN(s.Process.HeapBytes) {
				t.Errorf("process figures missing: %+v", s.Process)
			}
		})
	}
}

func TestDepthSumsPriorities(t *testing.T) {
	s := loadText(t, `workqueue_depth{controller="a",name="a",priority="0"} 3
workqueue_depth{controller="a",name="a",priority="-100"} 4
workqueue_depth{name="b"} 2
`)
	if s.Queues["a"].Depth != 7 || s.Queues["b"].Depth != 2 || s.Queues["a"].Controller != "a" {
		t.Fatalf("depths: a=%v b=%v", s.Queues["a"].Depth, s.Queues["b"].Depth)
	}
}

func TestQueuesControllerRuntimePair(t *testing.T) {
	prev, cur := load(t, "controller-runtime-1.prom"), load(t, "controller-runtime-2.prom")
	window := cur.Time.Sub(prev.Time)
	stats := Queues("cr", prev, cur, window)
	if g := find(t, stats, "gadget"); g.Depth != 120 {
		t.Errorf("gadget depth = %v, want 120", g.Depth)
	}
	w := find(t, stats, "widget")
	if !(w.AddsPerSecond > 0) || !(w.ReconcileErrorsPerSecond > 0) || w.MaxWorkers != 4 {
		t.Errorf("widget = %+v", w)
	}
	p := find(t, stats, "plain_worker")
	if !(p.CompletionsPerSecond > 0) || math.IsNaN(p.WorkP99) {
		t.Errorf("plain_worker = %+v", p)
	}
}

func TestQueuesLifetime(t *testing.T) {
	stats := Queues("kcm", nil, load(t, "kube-controller-manager-2.prom.gz"), 5*time.Second)
	for _, s := range stats {
		if s.Window != 0 || !math.IsNaN(s.AddsPerSecond) {
			t.Fatalf("lifetime stats must have no window and no rates: %+v", s)
		}
	}
	if s := find(t, stats, "garbage_collector_graph_changes"); math.IsNaN(s.WorkP99) {
		t.Errorf("lifetime work p99 missing: %+v", s)
	}
}

func TestQueuesEdgeCases(t *testing.T) {
	first := loadText(t, `# TYPE workqueue_work_duration_seconds histogram
workqueue_adds_total{name="a"} 100
workqueue_retries_total{name="a"} 10
workqueue_depth{name="a"} 1
workqueue_depth{name="old"} 4
workqueue_work_duration_seconds_bucket{name="a",le="1"} 90
workqueue_work_duration_seconds_bucket{name="a",le="+Inf"} 100
workqueue_work_duration_seconds_count{name="a"} 100
workqueue_work_duration_seconds_sum{name="a"} 50
`)
	second := loadText(t, `# TYPE workqueue_work_duration_seconds histogram
workqueue_adds_total{name="a"} 20
workqueue_retries_total{name="a"} 15
workqueue_depth{name="a"} 0
workqueue_adds_total{name="new"} 30
workqueue_depth{name="new"} NaN
workqueue_work_duration_seconds_bucket{name="a",le="1"} 10
workqueue_work_duration_seconds_bucket{name="a",le="+Inf"} 20
workqueue_work_duration_seconds_count{name="a"} 20
workqueue_work_duration_seconds_sum{name="a"} 15
workqueue_work_duration_seconds_bucket{name="new",le="+Inf"} 0
workqueue_work_duration_seconds_count{name="new"} 0
workqueue_work_duration_seconds_sum{name="new"} 0
`)
	stats := Queues("t", first, second, 10*time.Second)
	a := find(t, stats, "a")
	if a.AddsPerSecond != 2 || a.RetriesPerSecond != 0.5 || a.CompletionsPerSecond != 2 {
		t.Errorf("reset not handled: adds/s %v retries/s %v completions/s %v", a.AddsPerSecond, a.RetriesPerSecond, a.CompletionsPerSecond)
	}
	if a.WorkP50 != 1 { // rank 10 of 20 falls at the top of the (0,1] bucket
		t.Errorf("work p50 over reset window = %v, want 1", a.WorkP50)
	}
	n := find(t, stats, "new")
	if n.AddsPerSecond != 3 || !math.IsNaN(n.WorkP99) || !math.IsNaN(n.Depth) || n.Status != StatusOK { // OK until the findings judge it
		t.Errorf("new queue = %+v", n)
	}
	if o := find(t, stats, "old"); o.Status != StatusGone || o.DepthBefore != 4 {
		t.Errorf("vanished queue = %+v", o)
	}
}

func TestDepthByPriority(t *testing.T) {
	page := func(low, high float64) *Snapshot {
		return loadText(t, fmt.Sprintf(`workqueue_depth{controller="pq",name="pq",priority="0"} %g
workqueue_depth{controller="pq",name="pq",priority="-100"} %g
workqueue_depth{controller="pq",name="pq",priority="exceeded_cardinality_limit"} 1
workqueue_depth{controller="plain",name="plain",priority=""} 2
workqueue_depth{name="old"} 3
`, high, low))
	}
	first, second := page(40, 5), page(38, 9)
	if got := first.Queues["pq"].DepthByPriority; got["0"] != 5 || got["-100"] != 40 || got["exceeded_cardinality_limit"] != 1 || len(got) != 3 {
		t.Errorf("pq by priority = %v", got)
	}
	if first.Queues["plain"].DepthByPriority != nil || first.Queues["old"].DepthByPriority != nil {
		t.Errorf("plain queues have no priorities: %v, %v", first.Queues["plain"].DepthByPriority, first.Queues["old"].DepthByPriority)
	}
	stats := Queues("t", first, second, 5*time.Second)
	pq := find(t, stats, "pq")
	if pq.Depth != 48 || pq.DepthByPriority["-100"] != 38 || pq.DepthByPriorityBefore["-100"] != 40 || pq.DepthByPriorityBefore["0"] != 5 {
		t.Errorf("pq stats: depth %v, by priority %v, before %v", pq.Depth, pq.DepthByPriority, pq.DepthByPriorityBefore)
	}
	if p := find(t, stats, "plain"); p.DepthByPriority != nil || p.DepthByPriorityBefore != nil {
		t.Errorf("plain stats: %v, %v", p.DepthByPriority, p.DepthByPriorityBefore)
	}
	if life := find(t, Queues("t", nil, second, 0), "pq"); life.DepthByPriority["0"] != 9 || life.DepthByPriorityBefore != nil {
		t.Errorf("one sample: %v, before %v", life.DepthByPriority, life.DepthByPriorityBefore)
	}
	if got := strings.Join(Priorities(pq.DepthByPriority), " "); got != "0 -100 exceeded_cardinality_limit" {
		t.Errorf("Priorities = %q, want highest first, the overflow last", got)
	}
}
