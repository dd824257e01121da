package findings

import (
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/logs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// Failing reconciles of objects without status are named, with their errors, from the log.
func TestPersistentFailuresCiteTheLog(t *testing.T) {
	now := time.Date(2026, 11, 26, 8, 0, 0, 0, time.UTC)
	tg := crTarget(queue(func(q *health.QueueStats) { q.RetriesPerSecond, q.RetryRatio = 1.4, 1 }),
		map[string]float64{"error": 0}, map[string]float64{"error": 14}, 14)
	tg.Cur.Time = now
	tg.Objects = &objects.View{}
	tg.Log = &logs.Log{Failures: []logs.Failure{
		{Controller: "ctrl", Object: "shop/app-config", Error: "backend refused: 503", Count: 9, Last: now.Add(-2 * time.Second)},
		{Controller: "other", Object: "x/y", Error: "not this controller's", Count: 5, Last: now},
		{Object: "shop/flags", Error: "invalid key", Count: 5, Last: now.Add(-4 * time.Second)}}}
	fs := Evaluate([]Target{tg}, nil, nil, DefaultThresholds())
	if checks(fs) != "warning:persistent-failures" {
		t.Fatalf("got %q", checks(fs))
	}
	f := fs[0]
	if !strings.Contains(f.Summary, "the log names shop/app-config (x9), shop/flags (x5)") || strings.Contains(f.Summary, "x/y") {
		t.Errorf("summary: %s", f.Summary)
	}
	// The objects of its kind were not read, but the log named them: not "unknown".
	tg.Objects = nil
	if fs := Evaluate([]Target{tg}, nil, nil, DefaultThresholds()); len(fs) != 1 ||
		!strings.HasSuffix(fs[0].Summary, "(the log names shop/app-config (x9), shop/flags (x5); the objects of its kind were not read)") {
		t.Errorf("summary without the objects read: %+v", fs)
	}
	var cited []string
	for _, e := range f.Evidence {
		if e.Name == "log: Reconciler error" {
			cited = append(cited, e.Value)
		}
	}
	if len(cited) != 2 || cited[0] != `shop/app-config x9, last 2s before the last sample: "backend refused: 503"` {
		t.Errorf("evidence: %q", cited)
	}

	// Without failing reconciles in the window the log alone raises nothing.
	tg = crTarget(queue(nil), map[string]float64{"success": 0}, map[string]float64{"success": 10}, 0)
	tg.Log = &logs.Log{Failures: []logs.Failure{{Object: "a/b", Count: 1}}}
	if fs := Evaluate([]Target{tg}, nil, nil, DefaultThresholds()); len(fs) != 0 {
		t.Errorf("a log line alone raised %q", checks(fs))
	}
}

// client-throttling fires from the log's waits only when the rate-limiter metric is absent,
// and only for enough long waits.
func TestThrottlingFromTheLog(t *testing.T) {
	tg := crTarget(queue(nil), map[string]float64{"success": 0}, map[string]float64{"success": 10}, 0)
	tg.Log = &logs.Log{Throttling: &logs.Throttling{Count: 7, LongestSeconds: 2.4}}
	fs := Evaluate([]Target{tg}, nil, nil, DefaultThresholds())
	if checks(fs) != "warning:client-throttling" || !strings.Contains(fs[0].Summary, "the log shows 7 waits") || !strings.Contains(fs[0].Summary, "the longest 2.4s") {
		t.Fatalf("got %q %+v", checks(fs), fs)
	}
	tg.Log.Throttling.Count = 2
	if fs := Evaluate([]Target{tg}, nil, nil, DefaultThresholds()); len(fs) != 0 {
		t.Errorf("2 waits raised %q", checks(fs))
	}
	tg.Log.Throttling.Count = 7
	tg.Prev.Client.RateLimiterDuration, tg.Cur.Client.RateLimiterDuration = &health.Histogram{Count: 10, Sum: 0.01}, &health.Histogram{Count: 20, Sum: 0.02}
	if fs := Evaluate([]Target{tg}, nil, nil, DefaultThresholds()); len(fs) != 0 {
		t.Errorf("the log judged beside the rate-limiter metric: %q", checks(fs))
	}
}

// A panic's first frames from the log are cited by reconcile-panics.
func TestPanicFramesFromTheLog(t *testing.T) {
	tg := crTarget(queue(nil), map[string]float64{"success": 0}, map[string]float64{"success": 10}, 0)
	tg.Cur.Controllers["ctrl"].Panics = 2
	tg.Log = &logs.Log{Panics: []logs.Panic{{Controller: "ctrl", Message: "nil map", Count: 2, Frames: []string{"main.(*r).owner", "main.(*r).Reconcile", "x.y", "z"}}}}
	fs := Evaluate([]Target{tg}, nil, nil, DefaultThresholds())
	var got string
	for _, f := range fs {
		for _, e := range f.Evidence {
			if f.Check == "reconcile-panics" && e.Name == "log: panic" {
				got = e.Value
			}
		}
	}
	if got != `"nil map" x2 at main.(*r).owner < main.(*r).Reconcile < x.y` {
		t.Errorf("panic evidence %q in %+v", got, fs)
	}
}

// A stuck worker's failures stopped when it blocked, but the log read still holds them: the
// finding cites the objects that failed, with their errors, as context.
func TestStuckWorkerCitesTheLogsFailures(t *testing.T) {
	now := time.Date(2026, 11, 26, 8, 0, 0, 0, time.UTC)
	tg := crTarget(queue(func(q *health.QueueStats) {
		q.Longest, q.LongestBefore, q.Unfinished, q.ActiveWorkers, q.MaxWorkers = 70, 60, 70, 1, 1
	}), map[string]float64{"error": 10}, map[string]float64{"error": 10}, 10)
	tg.Cur.Time = now
	tg.Log = &logs.Log{Failures: []logs.Failure{
		{Controller: "ctrl", Object: "shop/work-05", Error: "sync to backend: connection refused", Count: 12, Last: now.Add(-70 * time.Second)},
		{Controller: "other", Object: "x/y", Error: "not this controller's", Count: 5, Last: now}}}
	var stuck *Finding
	fs := Evaluate([]Target{tg}, nil, nil, DefaultThresholds())
	for i := range fs {
		if fs[i].Check == "stuck-worker" {
			stuck = &fs[i]
		}
	}
	if stuck == nil {
		t.Fatalf("no stuck-worker: %q", checks(fs))
	}
	var cited []string
	for _, e := range stuck.Evidence {
		if e.Name == "log: Reconciler error" {
			cited = append(cited, e.Value)
		}
	}
	if len(cited) != 1 || cited[0] != `shop/work-05 x12, last 1m10s before the last sample: "sync to backend: connection refused"` {
		t.Errorf("evidence: %q", cited)
	}
}
