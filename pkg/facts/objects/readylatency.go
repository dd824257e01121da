package objects

import (
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
)

// TimeToReady is how long the objects of a kind took to become Ready after a change while they
// were watched: from the change (a creation, or a new metadata.generation) to the first watch
// event whose Ready condition is True for it. A Ready condition that carries its own
// observedGeneration is for the change when that reaches the change's generation; one that
// does not is for it when it is seen in a later event than the change and the object's
// status.observedGeneration, if it has one, reaches the generation (a Ready of an older spec
// does not count). Both ends are the times this tool received the events, as for SpecLatency.
type TimeToReady struct {
	// Seconds is how long the objects were watched.
	Seconds float64 `json:"seconds"`
	// Changes are the changes followed: creations and generation bumps.
	Changes int `json:"changes"`
	// Ready are the changes after which the object became Ready within the watch, with the
	// time it took: exact quantiles and maximum (null when none), and cumulative buckets
	// (the bounds of SpecLatency).
	Ready      int      `json:"ready"`
	P50Seconds *float64 `json:"p50Seconds"`
	P99Seconds *float64 `json:"p99Seconds"`
	MaxSeconds *float64 `json:"maxSeconds"`
	Buckets    []Bucket `json:"buckets,omitempty"`
	// Pending are the changes after which the object was not Ready yet when the watch stopped.
	Pending int `json:"pending"`
	// DeletedBeforeReady are the changes whose object was deleted (or began to be) before it
	// became Ready: not timed.
	DeletedBeforeReady int `json:"deletedBeforeReady,omitempty"`
	// NoReadyCondition says no object of the kind carried a Ready condition (Deployments, Jobs):
	// there is no time to Ready to measure, which is not a time of zero.
	NoReadyCondition bool `json:"noReadyCondition,omitempty"`
	// NoStatusSubresource says the kind has no /status subresource: its changes were not
	// followed (see SpecLatency).
	NoStatusSubresource bool `json:"noStatusSubresource,omitempty"`
	// Capped says more objects changed than were followed, or the exact quantiles hold only the
	// first samples.
	Capped bool `json:"capped,omitempty"`
	// Error says why the watch stopped early or never started.
	Error string `json:"error,omitempty"`
}

// readyPend is one change after which the object has not been Ready yet: its generation, when
// it was seen, and the event that carried it (a Ready without its own observedGeneration must
// come in a later one).
type readyPend struct {
	gen   int64
	at    time.Time
	event int
}

// readyState is what is known of one object's way to Ready.
type readyState = changeQueue[readyPend]

// readyTracker follows the objects' changes until they are Ready. It is pure: the times are
// given to it.
type readyTracker struct {
	objects map[types.UID]*readyState
	// events numbers the events seen.
	events  int
	changes int
	// latency are the times the changes took to become Ready, in the buckets of the bounds
	// given (the spec latency's).
	latency latencies
	deleted int
	// sawReady says an object carried a Ready condition.
	sawReady bool
	capped   bool
	// noStatus says the kind has no /status subresource: nothing is followed.
	noStatus bool
}

func newReadyTracker(b bounds) *readyTracker {
	return &readyTracker{objects: map[types.UID]*readyState{}, latency: newLatencies(b)}
}

// seed records an object of the initial list: its generation, with nothing pending (an object
// not Ready when the watch starts has no change of known time to time it from).
func (r *readyTracker) seed(u *unstructured.Unstructured) {
	if r.noStatus {
		return
	}
	if _, ok := conditions(u)["Ready"]; ok {
		r.sawReady = true
	}
	gen := u.GetGeneration()
	if gen <= 0 || u.GetDeletionTimestamp() != nil || len(r.objects) >= maxFollowed() {
		return
	}
	r.objects[u.GetUID()] = &readyState{gen: gen}
}

// event follows one watch event received at now: a creation or a new generation is a change;
// a Ready=True for it ends it. A deletion, or a deletion timestamp, ends the object's pending
// changes as deleted before Ready.
func (r *readyTracker) event(t watch.EventType, u *unstructured.Unstructured, now time.Time) {
	if r.noStatus {
		return
	}
	r.events++
	uid := u.GetUID()
	st := r.objects[uid]
	if t == watch.Deleted {
		if st != nil {
			r.deleted += len(st.pending)
		}
		delete(r.objects, uid)
		return
	}
	if t != watch.Added && t != watch.Modified {
		return
	}
	cs := conditions(u)
	ready, hasReady := cs["Ready"]
	r.sawReady = r.sawReady || hasReady
	gen := u.GetGeneration()
	if gen <= 0 {
		return
	}
	if u.GetDeletionTimestamp() != nil {
		if st != nil {
			r.deleted += len(st.pending)
			st.gen, st.pending = gen, nil
		}
		return
	}
	first := st == nil // not followed yet
	if first {
		if len(r.objects) >= maxFollowed() {
			r.capped = true
			return
		}
		st = &readyState{gen: gen}
		r.objects[uid] = st
	}
	if st.change(gen, first && t == watch.Added, readyPend{gen: gen, at: now, event: r.events}) {
		r.changes++
	}
	if hasReady && ready.Status == "True" {
		r.readyFor(st, ready, u, now)
	}
}

// readyFor ends the pending changes a Ready=True condition of u speaks for, at now.
func (r *readyTracker) readyFor(st *readyState, ready condition, u *unstructured.Unstructured, now time.Time) {
	status, hasStatus := statusObservedGeneration(u)
	n := 0
	for _, p := range st.pending {
		var done bool
		if ready.ObservedGeneration > 0 {
			done = ready.ObservedGeneration >= p.gen
		} else {
			done = p.event < r.events && (!hasStatus || status >= p.gen)
		}
		if !done {
			st.pending[n] = p
			n++
			continue
		}
		r.latency.add(now.Sub(p.at).Seconds())
	}
	st.pending = st.pending[:n]
}

// statusObservedGeneration is the object's status.observedGeneration, and whether it has one.
func statusObservedGeneration(u *unstructured.Unstructured) (int64, bool) {
	st, ok := u.Object["status"].(map[string]any)
	if !ok {
		return 0, false
	}
	v, ok := st["observedGeneration"]
	return integer(v), ok
}

// result is the time to Ready over the watch.
func (r *readyTracker) result(seconds float64) TimeToReady {
	out := TimeToReady{Seconds: seconds, Changes: r.changes, Ready: r.latency.n,
		DeletedBeforeReady: r.deleted, NoReadyCondition: !r.sawReady && !r.noStatus, NoStatusSubresource: r.noStatus,
		Capped: r.capped || r.latency.capped}
	out.P50Seconds, out.P99Seconds, out.MaxSeconds, out.Buckets = r.latency.summary()
	for _, st := range r.objects {
		out.Pending += len(st.pending)
	}
	return out
}
