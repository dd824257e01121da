package findings

import (
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/events"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// quotaEvents are Warning events of ns/op:8080's controller ctrl on a Workload whose child
// pods exceed a quota: its status holds no condition that says so.
func quotaEvents(at time.Time) *events.View {
	return &events.View{Groups: []events.Group{{Reason: "FailedCreate", Kind: "Workload", Object: "shop/web", Count: 14,
		LastSeen: at.Add(-3 * time.Second), Message: `pods "web-x" is forbidden: exceeded quota: no-pods`, Controllers: []string{"ns/op:8080 ctrl"}}}}
}

// Failing reconciles whose objects' status names none failed cite the controller's Warning
// events: the object, reason, count and message.
func TestPersistentFailuresCiteWarningEvents(t *testing.T) {
	now := time.Date(2026, 11, 26, 8, 0, 0, 0, time.UTC)
	tg := crTarget(queue(func(q *health.QueueStats) { q.RetriesPerSecond, q.RetryRatio = 1.4, 1 }),
		map[string]float64{"error": 0}, map[string]float64{"error": 14}, 14)
	tg.Cur.Time = now
	tg.Objects = &objects.View{Kinds: []objects.Summary{{Kind: objects.Kind{Kind: "Workload", Resource: "workloads", Namespaced: true},
		Controllers: []string{"ns/op:8080 ctrl"}, Total: 3}}}
	tg.Events = quotaEvents(now)
	fs := Evaluate([]Target{tg}, nil, nil, DefaultThresholds())
	if checks(fs) != "warning:persistent-failures" {
		t.Fatalf("got %q", checks(fs))
	}
	f := fs[0]
	if !strings.Contains(f.Summary, "Warning events name Workload shop/web (FailedCreate x14)") || !strings.Contains(f.Summary, "names none failed") {
		t.Errorf("summary: %s", f.Summary)
	}
	var cited string
	for _, e := range f.Evidence {
		if e.Name == "Warning event FailedCreate" {
			cited = e.Value
		}
	}
	if cited != `Workload shop/web x14, last 3s before the last sample: "pods "web-x" is forbidden: exceeded quota: no-pods"` {
		t.Errorf("evidence: %q (all %+v)", cited, f.Evidence)
	}

	// The objects' own status, when it names failures, is the evidence: the events are not added.
	tg.Objects = failingView(tg.ID)
	for _, e := range Evaluate([]Target{tg}, nil, nil, DefaultThresholds())[0].Evidence {
		if strings.HasPrefix(e.Name, "Warning event") {
			t.Errorf("events cited beside failed objects: %+v", e)
		}
	}
}

// Warning events alone raise nothing: a healthy controller stays without a finding, and a
// client-go queue's retry storm cites them.
func TestWarningEventsAloneRaiseNothing(t *testing.T) {
	now := time.Date(2026, 11, 26, 8, 0, 0, 0, time.UTC)
	ok := crTarget(queue(nil), map[string]float64{"success": 0}, map[string]float64{"success": 10}, 0)
	ok.Events = quotaEvents(now)
	if got := checks(Evaluate([]Target{ok}, nil, nil, DefaultThresholds())); got != "" {
		t.Errorf("a healthy controller with Warning events: %q", got)
	}
	page := func(at time.Time) *health.Snapshot {
		return &health.Snapshot{Time: at, Queues: map[string]*health.Queue{"ctrl": {Name: "ctrl"}}}
	}
	storm := Target{ID: "ns/op:8080", Kind: ClientGo, Prev: page(now.Add(-10 * time.Second)), Cur: page(now), Window: 10 * time.Second,
		Queues: []health.QueueStats{queue(func(q *health.QueueStats) {
			q.Controller = ""
			q.AddsPerSecond, q.RetriesPerSecond, q.RetryRatio = 20, 20, 1
		})}, Events: quotaEvents(now)}
	fs := Evaluate([]Target{storm}, nil, nil, DefaultThresholds())
	if checks(fs) != "warning:retry-storm" {
		t.Fatalf("got %q", checks(fs))
	}
	found := false
	for _, e := range fs[0].Evidence {
		found = found || e.Name == "Warning event FailedCreate" && strings.Contains(e.Value, "shop/web x14")
	}
	if !found {
		t.Errorf("the retry storm does not cite the events: %+v", fs[0].Evidence)
	}
}
