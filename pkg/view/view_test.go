package view

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

func TestNum(t *testing.T) {
	if Num(math.NaN()) != nil || Num(math.Inf(1)) != nil || *Num(2) != 2 {
		t.Error("NaN and Inf are null, other numbers themselves")
	}
}

// stats is a queue judged over a 10s window, its depth risen from 4 to 10 while it completed
// 2 items a second.
func stats() health.QueueStats {
	return health.QueueStats{Target: "ns/op:8080", Controller: "widget", Queue: "widget", Window: 10 * time.Second,
		Depth: 10, DepthBefore: 4, AddsPerSecond: 3, RetriesPerSecond: 0.5, CompletionsPerSecond: 2, ReconcileErrorsPerSecond: math.NaN(),
		QueueP50: 0.1, QueueP99: 2, QueueP99AtLeast: true, WorkP50: 0.2, WorkP99: 0.9, QueueMean: 0.3, WorkMean: 0.25,
		Unfinished: 1.5, Longest: 0.7, ActiveWorkers: 2, MaxWorkers: 4, Leader: 1, Status: health.StatusBacklog, Reason: "rising",
		DepthByPriority: map[string]float64{"0": 6, "-100": math.NaN()}}
}

// The row is computed once: the trend, the drain time and the window come from the figures,
// and the queue list writes it under the JSON names the QueueItem has always had.
func TestQueueRow(t *testing.T) {
	q := NewQueue(stats(), nil, nil)
	if q.Trend != "rising" || q.DrainSeconds == nil || *q.DrainSeconds != 5 || q.Window != "10s" {
		t.Errorf("trend %q drain %v window %q, want rising, 5s over 10s", q.Trend, q.DrainSeconds, q.Window)
	}
	if q.ReconcileErrorsPerSecond != nil || q.DepthByPriority["-100"] != nil || *q.DepthByPriority["0"] != 6 {
		t.Errorf("unknown figures must be nil: %+v", q)
	}
	if q.Leader == nil || !*q.Leader || q.QueueP90Seconds != nil || q.Reconciles != nil {
		t.Errorf("leader %v, and without snapshots no p90 (%v) nor reconciles (%v)", q.Leader, q.QueueP90Seconds, q.Reconciles)
	}
	got, err := json.Marshal(q)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(q.Item())
	if string(got) != string(want) {
		t.Errorf("a row is written as its QueueItem:\n got %s\nwant %s", got, want)
	}
	var back Queue
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Item(), q.Item()) {
		t.Errorf("read back: %+v, want %+v", back.Item(), q.Item())
	}
}

func TestTrend(t *testing.T) {
	for _, c := range []struct {
		before, now float64
		want        string
	}{{math.NaN(), 3, "unknown"}, {3, 3, "steady"}, {5, 3, "falling"}, {1, 3, "rising"}} {
		if got := trend(c.before, c.now); got != c.want {
			t.Errorf("trend(%v, %v) = %q, want %q", c.before, c.now, got, c.want)
		}
	}
}

// FromSections reads the report's two sections back into the rows they were projected from:
// what diff compares.
func TestFromSections(t *testing.T) {
	a := NewQueue(stats(), nil, nil)
	a.Reconciles = map[string]float64{"error": 3}
	b := a
	b.Queue = "other"
	only := b
	only.Queue = "backlog-only"
	backlog := []Backlog{only.Backlog(), b.Backlog(), a.Backlog()}
	events := []Events{a.Events(), b.Events()}
	rows := FromSections(backlog, events)
	if len(rows) != 3 || rows[0].Queue != "widget" || rows[1].Queue != "other" || rows[2].Queue != "backlog-only" {
		t.Fatalf("rows %+v: want section 4's order, then section 2's own", rows)
	}
	if !reflect.DeepEqual(rows[0].Backlog(), a.Backlog()) || !reflect.DeepEqual(rows[0].Events(), a.Events()) {
		t.Errorf("row read back differs:\n got %+v\nwant %+v", rows[0], a)
	}
	if rows[2].AddsPerSecond != nil || rows[2].Depth == nil {
		t.Errorf("a queue only in section 2 has its depth and no rates: %+v", rows[2])
	}
}
