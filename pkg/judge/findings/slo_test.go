package findings

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/capacity"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// sloTarget is a healthy queue of 4 workers that completed n items in 30s, slow of them
// waiting 5s and the rest 10ms.
func sloTarget(n, slow float64) Target {
	t := loadTarget(queueLoad{window: 30 * time.Second, workers: 4, busy: 1, completed: n, service: 0.05, wait: 0.01})
	waits := workqueueHist(100+n-slow, 0.01)
	for i, b := range workqueueHist(slow, 5).Buckets {
		waits.Buckets[i].Count += b.Count
	}
	waits.Count += slow
	t.Cur.Queues["ctrl"].QueueDuration = waits
	t.Queues = health.Queues(t.ID, t.Prev, t.Cur, t.Window)
	return t
}

// queueWaitSLOIn returns the queue-wait-slo finding of fs, if any.
func queueWaitSLOIn(fs []Finding) (Finding, bool) {
	for _, f := range fs {
		if f.Check == "queue-wait-slo" {
			return f, true
		}
	}
	return Finding{}, false
}

// The objective breaks only on evidence beyond chance: a healthy queue's few slow waits, or
// too few waits, raise nothing; the saturated demo's 9 of 9 and 17 of 1000 do.
func TestQueueWaitSLO(t *testing.T) {
	th := DefaultThresholds()
	for _, c := range []struct {
		name    string
		n, slow float64
		verdict capacity.Verdict
	}{
		{"99 waits, 1 slow", 99, 1, capacity.NotJudged},
		{"1000 waits, 12 slow: within chance", 1000, 12, capacity.Unknown},
		{"1000 waits, 17 slow", 1000, 17, capacity.Breaks},
		{"1000 waits, none slow", 1000, 0, capacity.Holds},
		{"9 waits, all slow", 9, 9, capacity.Breaks},
	} {
		tgt := sloTarget(c.n, c.slow)
		slis := SLIs(WithCapacity(tgt, th), th)
		if len(slis) != 1 || slis[0].Verdict != c.verdict || slis[0].Counts.N != c.n || slis[0].Counts.Over != c.slow {
			t.Errorf("%s: %+v, want %s over %v waits", c.name, slis, c.verdict, c.n)
			continue
		}
		f, ok := queueWaitSLOIn(Evaluate([]Target{tgt}, nil, nil, th))
		if ok != (c.verdict == capacity.Breaks) {
			t.Errorf("%s: finding %v (%+v), verdict %s", c.name, ok, f, c.verdict)
		}
		if ok && (f.Severity != Warning || !strings.Contains(f.Summary, "of ctrl waited over 1s in the last 30s (p99 objective 1s: at most 1%)")) {
			t.Errorf("%s: %s %q", c.name, f.Severity, f.Summary)
		}
	}
}

// One sample holds the start-up's waits: not judged, no finding, whatever they were.
func TestQueueWaitSLOOneSample(t *testing.T) {
	th := DefaultThresholds()
	tgt := sloTarget(1000, 500)
	tgt.Prev, tgt.Window = nil, 0
	tgt.Queues = health.Queues(tgt.ID, nil, tgt.Cur, 0)
	s := SLIs(tgt, th)
	if len(s) != 1 || s[0].Verdict != capacity.NotJudged || !strings.Contains(s[0].Why, "one sample") || !math.IsNaN(s[0].Counts.N) {
		t.Errorf("one sample: %+v", s)
	}
	if f, ok := queueWaitSLOIn(Evaluate([]Target{tgt}, nil, nil, th)); ok {
		t.Errorf("one sample raised %+v", f)
	}
}

// A saturated queue's finding names its cause.
func TestQueueWaitSLOCitesItsCause(t *testing.T) {
	th := DefaultThresholds()
	tgt := loadTarget(queueLoad{window: 30 * time.Second, workers: 2, busy: 2, depthBefore: 100, depth: 130, completed: 60, service: 1, wait: 60})
	f, ok := queueWaitSLOIn(Evaluate([]Target{tgt}, nil, nil, th))
	if !ok {
		t.Fatal("no queue-wait-slo on a saturated queue")
	}
	var cause string
	for _, e := range f.Evidence {
		if e.Name == "cause" {
			cause = e.Value
		}
	}
	if !strings.Contains(cause, "workers-saturated") {
		t.Errorf("cause %q in %+v", cause, f.Evidence)
	}
}
