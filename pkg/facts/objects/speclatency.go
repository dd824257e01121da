package objects

import (
	"math"
	"sort"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
)

// SpecLatency is how long the controller took to act on the spec changes of a kind's objects
// while they were watched: from the change (a creation, or a new metadata.generation) to the
// object's status saying it observed that generation (status.observedGeneration, or a
// condition's own observedGeneration). Both ends are the times this tool received the watch
// events, so the delivery delay cancels out and every clock is the same.
type SpecLatency struct {
	// Seconds is how long the objects were watched.
	Seconds float64 `json:"seconds"`
	// Changes are the spec changes seen: creations and generation bumps.
	Changes int `json:"changes"`
	// Observed are the changes the controller acted on within the watch, with their latency:
	// exact quantiles and maximum (null when none), and cumulative buckets (Count of them
	// at most LE seconds).
	Observed   int      `json:"observed"`
	P50Seconds *float64 `json:"p50Seconds"`
	P99Seconds *float64 `json:"p99Seconds"`
	MaxSeconds *float64 `json:"maxSeconds"`
	Buckets    []Bucket `json:"buckets,omitempty"`
	// ObservedSeeded are objects already behind their spec when the watch started that caught
	// up within it; SeededBuckets hold their latencies' lower bounds (the change was at or
	// before the object's last write that was not to its status).
	ObservedSeeded int      `json:"observedSeeded"`
	SeededBuckets  []Bucket `json:"seededBuckets,omitempty"`
	// Pending are the changes not acted on when the watch stopped; PendingBuckets hold how
	// long they had waited by then, PendingObjects the oldest few.
	Pending        int             `json:"pending"`
	PendingBuckets []Bucket        `json:"pendingBuckets,omitempty"`
	PendingObjects []PendingObject `json:"pendingObjects,omitempty"`
	// NoObservedGeneration says no object of the kind carried an observedGeneration (Jobs,
	// CronJobs): the controller does not say when it acted, so there is no latency to judge.
	NoObservedGeneration bool `json:"noObservedGeneration,omitempty"`
	// NoStatusSubresource says the kind has no /status subresource (Kind.NoStatusSubresource):
	// the controller's own status writes bump the generation, so its changes were not
	// followed and there is no latency to judge.
	NoStatusSubresource bool `json:"noStatusSubresource,omitempty"`
	// Capped says more objects changed than were followed, or the exact quantiles hold only the
	// first samples: the counts and buckets still hold every change followed.
	Capped bool `json:"capped,omitempty"`
	// Error says why the watch stopped early or never started.
	Error string `json:"error,omitempty"`
}

// Bucket is a cumulative histogram bucket: Count samples of at most LE seconds.
type Bucket struct {
	LE    float64 `json:"le"`
	Count int     `json:"count"`
}

// PendingObject is an object whose latest spec the controller had not acted on when the
// watch stopped.
type PendingObject struct {
	Object             string `json:"object"`
	Generation         int64  `json:"generation"`
	ObservedGeneration int64  `json:"observedGeneration"`
	// BehindSeconds is how long its oldest change not acted on had waited; BehindAtLeast
	// says the change was before the watch, so it waited at least that long.
	BehindSeconds float64 `json:"behindSeconds"`
	BehindAtLeast bool    `json:"behindAtLeast,omitempty"`
}

const (
	// maxPending bounds the changes not acted on kept per object: changes beyond it are
	// counted, not timed (the oldest ones carry the age).
	maxPending = 8
	// maxPendingObjects bounds SpecLatency.PendingObjects.
	maxPendingObjects = 3
)

// maxFollowed bounds the objects whose spec state is kept.
func maxFollowed() int { return 2 * maxObjects }

// Samples are the spec changes judged against an objective of t seconds, and those the watch
// cannot place against it. Judged: every change acted on within the watch (its latency
// exact), and every change in flight at either end of the watch that had already waited
// possibly over t (a change behind at the start that caught up, by its latency's lower bound;
// one pending at the end, by its age). Undecided: the changes in flight at an end that had
// waited less, whose latency lies partly outside the watch: counting them as on time would
// flatter a slow controller, counting them as possibly late would leave every busy one
// unjudged (a controller always has changes in flight). surely are the judged changes over
// the smallest bound >= t (NaN when t is above every bound), possibly those over the largest
// bound <= t.
func (s SpecLatency) Samples(t float64) (n, surely, possibly, undecided float64) {
	so, po := above(s.Buckets, s.Observed, t)
	ss, ps := above(s.SeededBuckets, s.ObservedSeeded, t)
	sp, pp := above(s.PendingBuckets, s.Pending, t)
	n = float64(s.Observed) + ps + pp
	undecided = float64(s.ObservedSeeded+s.Pending) - ps - pp
	return n, so + ss + sp, po + ps + pp, undecided
}

// above reads cumulative buckets of n samples: how many are surely over t (over the
// smallest bound >= t; NaN without one) and possibly over t (over the largest bound <= t; all
// without one).
func above(bs []Bucket, n int, t float64) (surely, possibly float64) {
	if n == 0 {
		return 0, 0
	}
	surely, possibly = math.NaN(), float64(n)
	for _, b := range bs {
		if b.LE <= t {
			possibly = float64(n - b.Count)
		}
		if b.LE >= t && math.IsNaN(surely) {
			surely = float64(n - b.Count)
		}
	}
	return surely, possibly
}

// pend is one spec change not acted on yet: its generation, when it was seen, and whether that
// is only a bound (the change was before the watch started).
type pend struct {
	gen     int64
	at      time.Time
	atLeast bool
}

// specState is what is known of one object's spec.
type specState struct {
	name string
	changeQueue[pend]
	observed int64
}

// specTracker follows the objects' spec changes until they are acted on. It is pure: the
// times are given to it.
type specTracker struct {
	// bounds are the buckets' bounds, the objective among them.
	bounds  bounds
	objects map[types.UID]*specState
	changes int
	// latency are the latencies of the changes acted on; seeded counts those of the objects
	// behind at the start by bucket (not cumulative, the last for above all bounds), without
	// samples: they are lower bounds, not in the quantiles.
	latency        latencies
	seeded         []int
	observedSeeded int
	// sawObserved says an object carried an observedGeneration.
	sawObserved bool
	capped      bool
	// noStatus says the kind has no /status subresource: nothing is followed.
	noStatus bool
}

func newSpecTracker(b bounds) *specTracker {
	return &specTracker{bounds: b, objects: map[types.UID]*specState{}, latency: newLatencies(b), seeded: make([]int, len(b)+1)}
}

// seed records an object of the initial list at time now: its generation and what it
// observed; one already behind its spec gets a change pending since its last write that was
// not to its status (or now, without one), as a lower bound.
func (s *specTracker) seed(u *unstructured.Unstructured, now time.Time) {
	gen := u.GetGeneration()
	if s.noStatus || gen <= 0 || u.GetDeletionTimestamp() != nil || len(s.objects) >= maxFollowed() {
		return
	}
	observed, found := observedOf(u)
	s.sawObserved = s.sawObserved || found
	st := &specState{name: objectName(u), changeQueue: changeQueue[pend]{gen: gen}, observed: observed}
	if specOf(u) == specOlder {
		// managedFields keep whole seconds: the write was before the next one.
		at := lastSpecWrite(u)
		if !at.IsZero() {
			at = at.Truncate(time.Second).Add(time.Second)
		}
		if at.IsZero() || at.After(now) {
			at = now
		}
		st.pending = []pend{{gen: gen, at: at, atLeast: true}}
	}
	s.objects[u.GetUID()] = st
}

// lastSpecWrite is the newest time a manager wrote the object other than through its status
// (the API server's clock, to the second): the spec change was then or before.
func lastSpecWrite(u *unstructured.Unstructured) time.Time {
	var last time.Time
	for _, m := range u.GetManagedFields() {
		if m.Subresource == "status" || m.Time == nil {
			continue
		}
		if m.Time.After(last) {
			last = m.Time.Time
		}
	}
	return last
}

// event follows one watch event received at now: a creation or a new generation is a
// change; whatever the object now says it observed acts on the changes up to it. A deletion,
// or a deletion timestamp (which bumps the generation of an object with finalizers), drops the
// object's pending changes uncounted.
func (s *specTracker) event(t watch.EventType, u *unstructured.Unstructured, now time.Time) {
	if s.noStatus {
		return
	}
	uid := u.GetUID()
	if t == watch.Deleted {
		delete(s.objects, uid)
		return
	}
	if t != watch.Added && t != watch.Modified {
		return
	}
	gen := u.GetGeneration()
	if gen <= 0 {
		return
	}
	observed, found := observedOf(u)
	s.sawObserved = s.sawObserved || found
	st := s.objects[uid]
	if u.GetDeletionTimestamp() != nil {
		if st != nil {
			st.gen, st.pending = gen, nil
		}
		return
	}
	first := st == nil // not followed yet
	if first {
		if len(s.objects) >= maxFollowed() {
			s.capped = true
			return
		}
		st = &specState{name: objectName(u), changeQueue: changeQueue[pend]{gen: gen}}
		s.objects[uid] = st
	}
	// An object first seen modified (it was beyond the list's bound) changed at a time not
	// known: of an object not followed yet, only an Added event is a change.
	if st.change(gen, first && t == watch.Added, pend{gen: gen, at: now}) {
		s.changes++
	}
	if found {
		s.acted(st, observed, now)
	}
}

// acted records the object's pending changes up to generation observed as acted on at now.
func (s *specTracker) acted(st *specState, observed int64, now time.Time) {
	st.observed = max(st.observed, observed)
	n := 0
	for _, p := range st.pending {
		if p.gen > observed {
			st.pending[n] = p
			n++
			continue
		}
		v := now.Sub(p.at).Seconds()
		if p.atLeast {
			s.observedSeeded++
			s.seeded[s.bounds.index(v)]++
			continue
		}
		s.latency.add(v)
	}
	st.pending = st.pending[:n]
}

// result is the latency over the watch, stopped at now.
func (s *specTracker) result(seconds float64, now time.Time) SpecLatency {
	out := SpecLatency{Seconds: seconds, Changes: s.changes, Observed: s.latency.n, ObservedSeeded: s.observedSeeded,
		SeededBuckets: s.bounds.cumulative(s.seeded), NoObservedGeneration: !s.sawObserved && !s.noStatus, NoStatusSubresource: s.noStatus,
		Capped: s.capped || s.latency.capped}
	out.P50Seconds, out.P99Seconds, out.MaxSeconds, out.Buckets = s.latency.summary()
	pending := make([]int, len(s.bounds)+1)
	var objs []PendingObject
	for _, st := range s.objects {
		if len(st.pending) == 0 {
			continue
		}
		for _, p := range st.pending {
			out.Pending++
			pending[s.bounds.index(now.Sub(p.at).Seconds())]++
		}
		oldest := st.pending[0]
		objs = append(objs, PendingObject{Object: st.name, Generation: st.gen, ObservedGeneration: st.observed,
			BehindSeconds: now.Sub(oldest.at).Seconds(), BehindAtLeast: oldest.atLeast})
	}
	out.PendingBuckets = s.bounds.cumulative(pending)
	sort.Slice(objs, func(i, j int) bool {
		if objs[i].BehindSeconds != objs[j].BehindSeconds {
			return objs[i].BehindSeconds > objs[j].BehindSeconds
		}
		return objs[i].Object < objs[j].Object
	})
	if len(objs) > maxPendingObjects {
		objs = objs[:maxPendingObjects]
	}
	out.PendingObjects = objs
	return out
}
