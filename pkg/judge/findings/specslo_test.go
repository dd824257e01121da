package findings

import (
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/capacity"
)

// specTarget is a healthy queue whose kind's watch saw fast changes acted on in 0.3s, slow
// ones in 60s, and pending ones still behind after 120s at the end (the oldest named).
func specTarget(fast, slow, pending int, noObserved bool) Target {
	t := sloTarget(200, 0)
	l := &objects.SpecLatency{Seconds: 45, Changes: fast + slow + pending, Observed: fast + slow, Pending: pending,
		NoObservedGeneration: noObserved,
		Buckets:              []objects.Bucket{{LE: 0.5, Count: fast}, {LE: 30, Count: fast}, {LE: 60, Count: fast + slow}}}
	if pending > 0 {
		l.PendingBuckets = []objects.Bucket{{LE: 0.5, Count: 0}, {LE: 30, Count: 0}, {LE: 60, Count: 0}}
		l.PendingObjects = []objects.PendingObject{{Object: "ops/w-\x1b[2Jstuck", Generation: 4, ObservedGeneration: 2, BehindSeconds: 120, BehindAtLeast: true}}
	}
	t.Objects = &objects.View{Kinds: []objects.Summary{{Kind: objects.Kind{Group: "demo.ctrldiag.dev", Resource: "workloads"},
		Controllers: []string{"ns/op:8080 ctrl"}, Total: 300, SpecLatency: l}}}
	return t
}

// specLatencySLOIn returns the spec-latency-slo finding of fs, if any.
func specLatencySLOIn(fs []Finding) (Finding, bool) {
	for _, f := range fs {
		if f.Check == "spec-latency-slo" {
			return f, true
		}
	}
	return Finding{}, false
}

// The spec-latency objective breaks only on evidence beyond chance, counting the changes still
// pending at the end; a healthy controller's changes, too few changes, or a kind that keeps no
// observedGeneration raise nothing.
func TestSpecLatencySLO(t *testing.T) {
	th := DefaultThresholds()
	for _, c := range []struct {
		name                string
		fast, slow, pending int
		noObserved          bool
		verdict             capacity.Verdict
		why                 string
	}{
		{"healthy: 300 fast changes", 300, 0, 0, false, capacity.Holds, ""},
		{"one slow change of 150", 149, 1, 0, false, capacity.Holds, ""},
		{"two changes pending long, few changes", 10, 0, 2, false, capacity.NotJudged, "12 spec changes in 45s, a p99 needs 100"},
		{"no change", 0, 0, 0, false, capacity.NotJudged, "no spec change of workloads.demo.ctrldiag.dev in 45s"},
		{"10 of 200 slow", 190, 10, 0, false, capacity.Breaks, ""},
		{"3 pending of 5, all over", 2, 0, 3, false, capacity.Breaks, ""},
		{"a kind without observedGeneration", 0, 0, 50, true, capacity.NotJudged, "keeps no observedGeneration"},
	} {
		tgt := specTarget(c.fast, c.slow, c.pending, c.noObserved)
		s := SpecSLIs(tgt, th)
		if len(s) != 1 || s[0].Verdict != c.verdict || !strings.Contains(s[0].Why, c.why) {
			t.Errorf("%s: %+v, want %s (%q)", c.name, s, c.verdict, c.why)
			continue
		}
		f, ok := specLatencySLOIn(Evaluate([]Target{tgt}, nil, nil, th))
		if ok != (c.verdict == capacity.Breaks) {
			t.Errorf("%s: finding %v (%+v), verdict %s", c.name, ok, f, c.verdict)
		}
		if ok && (f.Severity != Warning || f.Code != "CD224" || !strings.Contains(f.Summary, "spec changes of workloads.demo.ctrldiag.dev took over 30s until ctrl acted on them, in the last 45s (p99 objective 30s: at most 1%)")) {
			t.Errorf("%s: %s %s %q", c.name, f.Code, f.Severity, f.Summary)
		}
		if ok && c.pending > 0 && !strings.Contains(f.Summary, "behind longest: ops/w-\x1b[2Jstuck") {
			t.Errorf("%s: the oldest object behind is not named: %q", c.name, f.Summary)
		}
	}
}

// Without a cluster, or without a watch over the window, there is nothing to judge.
func TestSpecLatencySLONotRead(t *testing.T) {
	th := DefaultThresholds()
	tgt := sloTarget(200, 0)
	if s := SpecSLIs(tgt, th); len(s) != 1 || s[0].Verdict != capacity.NotJudged || !strings.Contains(s[0].Why, "no cluster") {
		t.Errorf("no objects read: %+v", s)
	}
	tgt.Objects = &objects.View{Kinds: []objects.Summary{{Controllers: []string{"ns/op:8080 ctrl"}, Total: 3}}}
	if s := SpecSLIs(tgt, th); len(s) != 1 || s[0].Verdict != capacity.NotJudged || !strings.Contains(s[0].Why, "not watched") {
		t.Errorf("no watch: %+v", s)
	}
}

// A kind without a /status subresource, whose controller's own status writes bump the
// generation, is not judged even when every change looks pending: a healthy controller of such
// a kind must not get CD224.
func TestSpecLatencySLONoStatusSubresource(t *testing.T) {
	th := DefaultThresholds()
	tgt := specTarget(0, 0, 300, false)
	tgt.Objects.Kinds[0].SpecLatency.NoStatusSubresource = true
	if s := SpecSLIs(tgt, th); len(s) != 1 || s[0].Verdict != capacity.NotJudged || !strings.Contains(s[0].Why, "has no /status subresource") {
		t.Errorf("no /status: %+v", s)
	}
	if f, ok := specLatencySLOIn(Evaluate([]Target{tgt}, nil, nil, th)); ok {
		t.Errorf("no /status: %s %s", f.Code, f.Summary)
	}
}

// A busy controller always has changes in flight at the window's edges: those that had waited
// less than the objective are undecided, not possibly late, so 300 fast changes with four in
// flight at each edge hold; in flight past the objective they count, and break it.
func TestSpecLatencySLOChangesInFlightAtTheEdges(t *testing.T) {
	th := DefaultThresholds()
	tgt := specTarget(300, 0, 0, false)
	l := tgt.Objects.Kinds[0].SpecLatency
	l.ObservedSeeded, l.SeededBuckets = 4, []objects.Bucket{{LE: 0.5, Count: 4}, {LE: 30, Count: 4}, {LE: 60, Count: 4}}
	l.Pending, l.PendingBuckets = 4, []objects.Bucket{{LE: 0.5, Count: 4}, {LE: 30, Count: 4}, {LE: 60, Count: 4}}
	s := SpecSLIs(tgt, th)
	if len(s) != 1 || s[0].Verdict != capacity.Holds || s[0].Counts.N != 300 || s[0].Undecided != 8 {
		t.Fatalf("fast changes in flight at the edges: %+v, want holds over 300 changes, 8 undecided", s)
	}
	// The same edges having waited over a minute: surely over the 30s objective.
	l.SeededBuckets = []objects.Bucket{{LE: 0.5, Count: 0}, {LE: 30, Count: 0}, {LE: 60, Count: 0}}
	l.PendingBuckets = []objects.Bucket{{LE: 0.5, Count: 0}, {LE: 30, Count: 0}, {LE: 60, Count: 0}}
	s = SpecSLIs(tgt, th)
	if len(s) != 1 || s[0].Verdict != capacity.Breaks || s[0].Counts.N != 308 || s[0].Counts.Over != 8 || s[0].Undecided != 0 {
		t.Fatalf("slow changes in flight at the edges: %+v, want breaks with 8 of 308 over, none undecided", s)
	}
}
