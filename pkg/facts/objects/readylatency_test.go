package objects

import (
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/watch"
)

// readyObj is a Workload at generation gen whose status observed generation observed (none when
// observed < 0) and whose Ready condition has status ready ("" for none) with its own
// observedGeneration readyGen (none when 0).
func readyObj(uid string, gen, observed int64, ready string, readyGen int64) *unstructured.Unstructured {
	u := specObj(uid, gen, observed, time.Time{})
	if ready != "" {
		c := map[string]any{"type": "Ready", "status": ready, "reason": "Test"}
		if readyGen > 0 {
			c["observedGeneration"] = readyGen
		}
		_ = unstructured.SetNestedSlice(u.Object, []any{c}, "status", "conditions")
	}
	return u
}

// readySteps feeds the events to a tracker seeded with seeds at 0s and returns what it measured
// over 60s.
func readySteps(seeds []*unstructured.Unstructured, steps []readyStep) TimeToReady {
	r := newReadyTracker(specBounds)
	for _, u := range seeds {
		r.seed(u)
	}
	for _, st := range steps {
		r.event(st.ev, st.u, now.Add(time.Duration(st.s*float64(time.Second))))
	}
	return r.result(60)
}

type readyStep struct {
	s  float64
	ev watch.EventType
	u  *unstructured.Unstructured
}

// The sequences the reference operator and controllers like it write: a creation (no status,
// then Ready=False while it works, then Ready=True of its generation); a generation bump on an
// object already Ready at the start (the stale Ready=True of the old generation does not count);
// a Ready that flaps (only its first True after a change counts, the flap is no change); an
// object deleted before it became Ready; and one still not Ready at the end.
func TestTimeToReady(t *testing.T) {
	seeds := []*unstructured.Unstructured{
		readyObj("up", 3, 3, "True", 3),    // Ready at the start: nothing to time
		readyObj("flap", 1, 1, "True", 1),  // Ready at the start, will flap
		readyObj("down", 2, 2, "False", 2), // not Ready at the start: not timed (no change seen)
	}
	got := readySteps(seeds, []readyStep{
		{1, watch.Added, readyObj("new", 1, -1, "", 0)},
		{1.2, watch.Modified, readyObj("new", 1, 1, "False", 1)}, // working on it
		{2.5, watch.Modified, readyObj("new", 1, 1, "True", 1)},  // Ready after 1.5s
		{3, watch.Modified, readyObj("up", 4, 3, "True", 3)},     // bump: Ready of generation 3 is stale
		{3.4, watch.Modified, readyObj("up", 4, 4, "True", 4)},   // Ready after 0.4s
		{4, watch.Modified, readyObj("flap", 1, 1, "False", 1)},  // flap: no change, nothing to time
		{5, watch.Modified, readyObj("flap", 1, 1, "True", 1)},
		{6, watch.Modified, readyObj("flap", 2, 1, "True", 1)},  // bump
		{7, watch.Modified, readyObj("flap", 2, 2, "False", 2)}, // acted on, not Ready
		{8, watch.Modified, readyObj("flap", 2, 2, "True", 2)},  // Ready after 2s
		{9, watch.Modified, readyObj("flap", 2, 2, "False", 2)}, // flaps again: nothing more
		{9.5, watch.Modified, readyObj("flap", 2, 2, "True", 2)},
		{10, watch.Added, readyObj("doomed", 1, -1, "", 0)},
		{11, watch.Modified, readyObj("doomed", 1, 1, "False", 1)},
		{12, watch.Deleted, readyObj("doomed", 1, 1, "False", 1)}, // deleted before Ready
		{13, watch.Modified, readyObj("down", 3, 2, "False", 2)},  // bump, still not Ready at the end
		{14, watch.Modified, readyObj("down", 3, 3, "False", 3)},
	})
	if got.Changes != 5 || got.Ready != 3 || got.Pending != 1 || got.DeletedBeforeReady != 1 || got.NoReadyCondition || got.Capped {
		t.Fatalf("%+v: want 5 changes (new, up, flap, doomed, down), 3 Ready, 1 pending, 1 deleted", got)
	}
	if *got.P50Seconds != 1.5 || *got.P99Seconds != 2 || *got.MaxSeconds != 2 {
		t.Errorf("p50 %v p99 %v max %v, want 1.5, 2, 2 (of 0.4, 1.5, 2)", *got.P50Seconds, *got.P99Seconds, *got.MaxSeconds)
	}
	if b := got.Buckets; len(b) != len(specBounds) || b[3] != (Bucket{LE: 0.5, Count: 1}) || b[5] != (Bucket{LE: 2, Count: 3}) {
		t.Errorf("buckets %v, want 1 at or under 0.5s and 3 at or under 2s", b)
	}
}

// A Ready condition without its own observedGeneration counts when it is seen after the change,
// in a later event, and status.observedGeneration (when the object has one) reaches the change:
// the Ready=True the bump itself carries is of the old spec.
func TestTimeToReadyWithoutConditionGeneration(t *testing.T) {
	got := readySteps([]*unstructured.Unstructured{readyObj("a", 1, 1, "True", 0), readyObj("b", 1, -1, "True", 0)}, []readyStep{
		{1, watch.Modified, readyObj("a", 2, 1, "True", 0)}, // the bump: Ready of the old spec
		{2, watch.Modified, readyObj("a", 2, 1, "True", 0)}, // a later event, but observedGeneration 1
		{3, watch.Modified, readyObj("a", 2, 2, "True", 0)}, // Ready after 2s
		{4, watch.Modified, readyObj("b", 2, -1, "True", 0)},
		{4.25, watch.Modified, readyObj("b", 2, -1, "True", 0)}, // no observedGeneration at all: the next Ready, 0.25s
	})
	if got.Changes != 2 || got.Ready != 2 || got.Pending != 0 || *got.P50Seconds != 0.25 || *got.MaxSeconds != 2 {
		t.Errorf("%+v, want 2 Ready after 0.25s and 2s", got)
	}
}

// A kind whose objects carry no Ready condition (Deployments, Jobs) says so: its changes are
// pending, and there is no time of zero.
func TestTimeToReadyNoReadyCondition(t *testing.T) {
	got := readySteps([]*unstructured.Unstructured{readyObj("a", 1, 1, "", 0)}, []readyStep{
		{1, watch.Modified, readyObj("a", 2, 1, "", 0)},
		{2, watch.Modified, readyObj("a", 2, 2, "", 0)},
	})
	if !got.NoReadyCondition || got.Ready != 0 || got.P99Seconds != nil || got.Pending != 1 {
		t.Errorf("%+v, want no Ready condition, the change pending, no quantiles", got)
	}
}

// An object that begins to be deleted before it is Ready ends its pending changes as deleted,
// not as Ready nor pending.
func TestTimeToReadyDeletionTimestamp(t *testing.T) {
	got := readySteps(nil, []readyStep{
		{1, watch.Added, readyObj("a", 1, -1, "", 0)},
		{2, watch.Modified, deleting(readyObj("a", 1, -1, "", 0), 2)},
		{3, watch.Modified, deleting(readyObj("a", 2, 2, "True", 2), 2)},
	})
	if got.Changes != 1 || got.DeletedBeforeReady != 1 || got.Ready != 0 || got.Pending != 0 {
		t.Errorf("%+v, want the creation deleted before Ready", got)
	}
}

// A kind without a /status subresource is not followed: the controller's own status writes
// bump its generation, so each looks like a change that never becomes Ready or observed.
func TestLatencyNoStatusSubresource(t *testing.T) {
	r, s := newReadyTracker(specBounds), newSpecTracker(specBounds)
	r.noStatus, s.noStatus = true, true
	r.seed(readyObj("a", 1, 1, "True", 0))
	s.seed(readyObj("a", 1, 1, "True", 0), now)
	for i, u := range []*unstructured.Unstructured{readyObj("a", 2, 1, "True", 0), readyObj("a", 3, 2, "True", 0)} { // its own writes
		r.event(watch.Modified, u, now.Add(time.Duration(i)*time.Second))
		s.event(watch.Modified, u, now.Add(time.Duration(i)*time.Second))
	}
	gotR, gotS := r.result(10), s.result(10, now.Add(10*time.Second))
	if !gotR.NoStatusSubresource || gotR.NoReadyCondition || gotR.Changes != 0 || gotR.Pending != 0 {
		t.Errorf("time to Ready %+v, want nothing followed and no /status said", gotR)
	}
	if !gotS.NoStatusSubresource || gotS.NoObservedGeneration || gotS.Changes != 0 || gotS.Pending != 0 {
		t.Errorf("spec latency %+v, want nothing followed and no /status said", gotS)
	}
}
