package objects

import (
	"math"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
)

// specObj is a Workload at generation gen whose status observed generation observed (none when
// observed < 0), last written (not to its status) at written when not zero.
func specObj(uid string, gen, observed int64, written time.Time) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "demo.ctrldiag.dev/v1alpha1", "kind": "Workload"}}
	u.SetNamespace("ops")
	u.SetName("w-" + uid)
	u.SetUID(types.UID(uid))
	u.SetGeneration(gen)
	if observed >= 0 {
		u.Object["status"] = map[string]any{"observedGeneration": observed}
	}
	if !written.IsZero() {
		u.SetManagedFields([]metav1.ManagedFieldsEntry{
			{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationUpdate, Time: &metav1.Time{Time: written}},
			{Manager: "operator", Operation: metav1.ManagedFieldsOperationUpdate, Subresource: "status", Time: &metav1.Time{Time: written.Add(time.Hour)}},
		})
	}
	return u
}

func deleting(u *unstructured.Unstructured, gen int64) *unstructured.Unstructured {
	ts := metav1.NewTime(now)
	u.SetDeletionTimestamp(&ts)
	u.SetGeneration(gen)
	return u
}

// The watch times each spec change to the event that says it was observed; a change made
// before the watch counts with its lower bound only; deletions are dropped; what is pending at
// the end is named with its age.
func TestSpecLatency(t *testing.T) {
	at := func(s float64) time.Time { return now.Add(time.Duration(s * float64(time.Second))) }
	s := newSpecTracker(specBounds)
	// Seed: a current, one behind since 10s before the start, one without status.
	s.seed(specObj("a", 1, 1, time.Time{}), at(0))
	s.seed(specObj("seeded", 4, 3, at(-10)), at(0))
	s.seed(specObj("fresh", 1, -1, time.Time{}), at(0))
	steps := []struct {
		s  float64
		ev watch.EventType
		u  *unstructured.Unstructured
	}{
		{1, watch.Modified, specObj("a", 2, 1, time.Time{})},              // change
		{2, watch.Modified, specObj("a", 3, 1, time.Time{})},              // change
		{2.5, watch.Modified, specObj("a", 3, 1, time.Time{})},            // annotation: same generation
		{3, watch.Modified, specObj("a", 3, 3, time.Time{})},              // both observed: 2s and 1s
		{4, watch.Modified, specObj("seeded", 4, 4, time.Time{})},         // at least 13s: written within the 10th second before
		{5, watch.Added, specObj("new", 1, -1, time.Time{})},              // creation
		{5.3, watch.Modified, specObj("new", 1, 1, time.Time{})},          // 0.3s
		{6, watch.Modified, specObj("gone", 2, 1, time.Time{})},           // an object not listed: not timed
		{6, watch.Modified, specObj("a", 4, 3, time.Time{})},              // change
		{7, watch.Modified, deleting(specObj("a", 4, 3, time.Time{}), 5)}, // deletion: dropped
		{8, watch.Deleted, specObj("a", 5, 3, time.Time{})},
		{9, watch.Modified, specObj("fresh", 2, -1, time.Time{})}, // change, still behind at the end
		{20, watch.Modified, specObj("fresh", 2, 1, time.Time{})}, // observed an older one only
	}
	for _, st := range steps {
		s.event(st.ev, st.u, at(st.s))
	}
	got := s.result(40, at(40))
	if got.Changes != 5 || got.Observed != 3 || got.ObservedSeeded != 1 || got.Pending != 1 || got.NoObservedGeneration || got.Capped {
		t.Fatalf("%+v: want 5 changes (2 of a, new, a again, fresh), 3 observed, 1 seeded, 1 pending", got)
	}
	if *got.P50Seconds != 1 || *got.MaxSeconds != 2 || *got.P99Seconds != 2 {
		t.Errorf("p50 %v p99 %v max %v, want 1, 2, 2 (of 0.3, 1, 2)", *got.P50Seconds, *got.P99Seconds, *got.MaxSeconds)
	}
	if len(got.PendingObjects) != 1 || got.PendingObjects[0] != (PendingObject{Object: "ops/w-fresh", Generation: 2, ObservedGeneration: 1, BehindSeconds: 31}) {
		t.Errorf("pending %+v", got.PendingObjects)
	}
	// Against 1s: 2s is surely over; 1s sits on a bound, so exactly; the seeded 13s is surely
	// over; the pending 31s too.
	n, surely, possibly, undecided := got.Samples(1)
	if n != 5 || surely != 3 || possibly != 3 || undecided != 0 {
		t.Errorf("against 1s: %v samples, %v surely and %v possibly over, %v undecided; want 5, 3, 3, 0", n, surely, possibly, undecided)
	}
	// Against 30s only the pending change is over; the seeded one waited at least 13s, which
	// does not place it: undecided, not judged.
	if n, surely, possibly, undecided = got.Samples(30); n != 4 || surely != 1 || possibly != 1 || undecided != 1 {
		t.Errorf("against 30s: %v samples, %v surely and %v possibly over, %v undecided; want 4, 1, 1, 1", n, surely, possibly, undecided)
	}
	// Between bounds (3s): over 5s surely, over 2s possibly.
	if _, surely, possibly, _ = got.Samples(3); surely != 2 || possibly != 2 {
		t.Errorf("against 3s: %v surely, %v possibly; want 2, 2", surely, possibly)
	}
	if _, surely, _, _ = got.Samples(3600); !math.IsNaN(surely) {
		t.Errorf("above every bound: surely %v, want NaN", surely)
	}
}

// A condition's own observedGeneration says the controller acted, as status.observedGeneration
// does (Flux stamps each condition and holds status.observedGeneration back while a generation
// fails).
func TestSpecLatencyConditions(t *testing.T) {
	s := newSpecTracker(specBounds)
	u := specObj("f", 1, 1, time.Time{})
	s.seed(u, now)
	u = specObj("f", 2, 1, time.Time{})
	s.event(watch.Modified, u, now.Add(time.Second))
	_ = unstructured.SetNestedSlice(u.Object, []any{map[string]any{"type": "Ready", "status": "False", "observedGeneration": int64(2)}}, "status", "conditions")
	if specOf(u) != specCurrent || behindSpec(u) {
		t.Fatalf("a Ready condition of generation 2: spec %v", specOf(u))
	}
	s.event(watch.Modified, u, now.Add(1500*time.Millisecond))
	if got := s.result(10, now.Add(10*time.Second)); got.Observed != 1 || *got.MaxSeconds != 0.5 || got.Pending != 0 {
		t.Errorf("%+v, want one change observed after 0.5s", got)
	}
}

// A kind whose objects never carry an observedGeneration (Jobs) says so: its changes stay
// pending, and there is nothing to judge them by.
func TestSpecLatencyNoObservedGeneration(t *testing.T) {
	s := newSpecTracker(specBounds)
	s.seed(specObj("j", 1, -1, time.Time{}), now)
	s.event(watch.Added, specObj("k", 1, -1, time.Time{}), now.Add(time.Second))
	got := s.result(60, now.Add(time.Minute))
	if !got.NoObservedGeneration || got.Changes != 1 || got.Pending != 1 || got.P99Seconds != nil {
		t.Errorf("%+v, want no observedGeneration, 1 change pending", got)
	}
}

// The objects followed are bounded; one beyond the bound is not timed and says the figures
// are capped.
func TestSpecLatencyBounded(t *testing.T) {
	defer func(n int) { maxObjects = n }(maxObjects)
	maxObjects = 1
	s := newSpecTracker(specBounds)
	s.event(watch.Added, specObj("a", 1, -1, time.Time{}), now)
	s.event(watch.Added, specObj("b", 1, -1, time.Time{}), now)
	s.event(watch.Added, specObj("c", 1, -1, time.Time{}), now)
	if got := s.result(1, now); got.Changes != 2 || !got.Capped {
		t.Errorf("%+v, want 2 followed and capped", got)
	}
}

// The changes in flight at either end of the watch are judged only when they had already
// waited possibly over the objective: a busy controller always has a few in flight, and
// those that waited less are undecided, neither on time nor late.
func TestSamplesLeaveTheEdgesUndecided(t *testing.T) {
	busy := SpecLatency{
		Observed: 300, Buckets: specBounds.cumulative(counts(map[float64]int{0.5: 200, 1: 97, 10: 3})),
		ObservedSeeded: 4, SeededBuckets: specBounds.cumulative(counts(map[float64]int{0.25: 3, 15: 1})),
		Pending: 5, PendingBuckets: specBounds.cumulative(counts(map[float64]int{0.1: 4, 60: 1})),
	}
	n, surely, possibly, undecided := busy.Samples(5)
	if n != 302 || surely != 5 || possibly != 5 || undecided != 7 {
		t.Errorf("against 5s: %v judged, %v surely and %v possibly over, %v undecided; want 302 (300 acted on, 1 seeded, 1 pending), 5, 5, 7", n, surely, possibly, undecided)
	}
	// Between bounds (3s: 2s and 5s) a change in flight under 2s stays undecided.
	if n, surely, possibly, undecided = busy.Samples(3); n != 302 || surely != 5 || possibly != 5 || undecided != 7 {
		t.Errorf("against 3s: %v judged, %v surely, %v possibly, %v undecided; want 302, 5, 5, 7", n, surely, possibly, undecided)
	}
	// Below every change in flight, all of them are judged.
	if n, _, _, undecided = busy.Samples(0.05); n != 309 || undecided != 0 {
		t.Errorf("against 50ms: %v judged, %v undecided; want 309, 0", n, undecided)
	}
}

// counts turns latencies and how many had each into per-bucket counts.
func counts(m map[float64]int) []int {
	out := make([]int, len(specBounds)+1)
	for v, c := range m {
		out[specBounds.index(v)] += c
	}
	return out
}
