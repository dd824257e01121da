package objects

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"math"
	"sort"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
)

// Changes is how often the objects of a kind changed while they were watched: the events a
// controller that reconciles them is handed, counted at the API server and not at the queue,
// which merges the changes of an object that already waits.
type Changes struct {
	// Count is the objects created, deleted, or changed in their spec (generation), labels,
	// annotations or finalizers; status-only changes are not counted (most controllers filter
	// them, and they are mostly the controller's own writes).
	Count int `json:"count"`
	// Seconds is how long the objects were watched.
	Seconds float64 `json:"seconds"`
	// Error says why the watch stopped early or never started; Count and Seconds then cover
	// what was watched.
	Error string `json:"error,omitempty"`
	// ByCount is how many objects changed n times, by n: how the changes spread over the
	// objects (a queue merges the changes of one object, so one hot object is one item at a
	// time however often it changes).
	ByCount map[int]int `json:"byCount,omitempty"`
	// Top are the objects that changed most, most first (up to three).
	Top []ObjectChanges `json:"top,omitempty"`
	// Unfollowed counts the changes of objects past the most followed one by one
	// (maxFollowed): they are in Count, not in ByCount or Top.
	Unfollowed int `json:"unfollowed,omitempty"`
}

// ObjectChanges is how often one object ("namespace/name") changed.
type ObjectChanges struct {
	Object string `json:"object"`
	Count  int    `json:"count"`
}

// maxTop bounds Changes.Top.
const maxTop = 3

// Served is the changes a second that can become distinct work items when one object can be
// worked on at most max times over the watch (its changes beyond that merge in the queue):
// each object counts min(changes, max). Without the spread (ByCount), all changes count, as
// the Unfollowed ones do.
func (c Changes) Served(max float64) float64 {
	if c.Seconds <= 0 {
		return 0
	}
	if len(c.ByCount) == 0 {
		return c.PerSecond()
	}
	n := float64(c.Unfollowed)
	for changes, objects := range c.ByCount {
		n += float64(objects) * math.Min(float64(changes), max)
	}
	return n / c.Seconds
}

// PerSecond is the changes a second; 0 when nothing was watched.
func (c Changes) PerSecond() float64 {
	if c.Seconds <= 0 {
		return 0
	}
	return float64(c.Count) / c.Seconds
}

// ChangeWatch counts the changes of one kind's objects in a namespace ("" for all) from the
// moment it starts until Stop, and times how long the controller takes to act on their spec
// changes (SpecLatency) and how long they take to become Ready (TimeToReady).
type ChangeWatch struct {
	cancel context.CancelFunc
	done   chan struct{}

	mu      sync.Mutex
	started time.Time
	stopped time.Time
	err     string
	now     func() time.Time
	// per counts the changes of each object, up to maxFollowed objects; unfollowed those of
	// the objects past them.
	per        map[types.UID]*ObjectChanges
	unfollowed int
	// spec follows the objects' spec changes until the controller acts on them.
	spec *specTracker
	// ready follows the same changes until the objects are Ready.
	ready *readyTracker
}

// WatchChanges lists the kind's objects (to know their state before the first change) and
// watches them from that list on, in the background, until Stop. The spec latency is
// counted with the objective among the buckets' bounds (none: the default bounds only).
func WatchChanges(ctx context.Context, dyn dynamic.Interface, k Kind, ns string, objective time.Duration) *ChangeWatch {
	return WatchChangesIn(ctx, dyn, k, []string{ns}, objective)
}

// WatchChangesIn is WatchChanges over several namespaces, one list and watch each, counted and
// timed together: a kind read namespace by namespace. The first to fail stops them all.
func WatchChangesIn(ctx context.Context, dyn dynamic.Interface, k Kind, namespaces []string, objective time.Duration) *ChangeWatch {
	if !k.Namespaced || len(namespaces) == 0 {
		namespaces = []string{""}
	}
	ctx, cancel := context.WithCancel(ctx)
	b := boundsFor(objective)
	w := &ChangeWatch{cancel: cancel, done: make(chan struct{}), now: time.Now, per: map[types.UID]*ObjectChanges{}, spec: newSpecTracker(b), ready: newReadyTracker(b)}
	// Without a /status subresource the controller's status writes bump the generation: the
	// changes are counted, their latency not followed.
	w.spec.noStatus, w.ready.noStatus = k.NoStatusSubresource, k.NoStatusSubresource
	w.started = w.now()
	var wg sync.WaitGroup
	for _, ns := range namespaces {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.run(ctx, dyn.Resource(k.GVR()).Namespace(ns), k, ns)
		}()
	}
	go func() {
		wg.Wait()
		close(w.done)
	}()
	return w
}

// Stop ends the watch and returns what it counted, and the spec latency and time to Ready it
// measured.
func (w *ChangeWatch) Stop() (Changes, *SpecLatency, *TimeToReady) {
	w.mu.Lock()
	if w.stopped.IsZero() {
		w.stopped = w.now()
	}
	w.mu.Unlock()
	w.cancel()
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	c := Changes{Seconds: w.stopped.Sub(w.started).Seconds(), Error: w.err, Count: w.unfollowed, Unfollowed: w.unfollowed}
	if len(w.per) > 0 {
		c.ByCount = map[int]int{}
	}
	for _, o := range w.per {
		c.Count += o.Count
		c.ByCount[o.Count]++
		c.Top = append(c.Top, *o)
	}
	sort.Slice(c.Top, func(i, j int) bool {
		if c.Top[i].Count != c.Top[j].Count {
			return c.Top[i].Count > c.Top[j].Count
		}
		return c.Top[i].Object < c.Top[j].Object
	})
	if len(c.Top) > maxTop {
		c.Top = c.Top[:maxTop]
	}
	spec := w.spec.result(c.Seconds, w.stopped)
	spec.Error = w.err
	ready := w.ready.result(c.Seconds)
	ready.Error = w.err
	return c, &spec, &ready
}

// fail records why the watch stopped, and when, unless it was stopped first.
func (w *ChangeWatch) fail(msg string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped.IsZero() {
		w.stopped = w.now()
		w.err = msg
	}
}

// received follows one event of u (its spec state, and whether it is a change, counted), unless
// the watch was stopped.
func (w *ChangeWatch) received(t watch.EventType, u *unstructured.Unstructured, changed bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.stopped.IsZero() {
		return
	}
	now := w.now()
	w.spec.event(t, u, now)
	w.ready.event(t, u, now)
	if !changed {
		return
	}
	o := w.per[u.GetUID()]
	if o == nil && len(w.per) >= maxFollowed() {
		w.unfollowed++
		return
	}
	if o == nil {
		o = &ObjectChanges{Object: objectName(u)}
		w.per[u.GetUID()] = o
	}
	o.Count++
}

// run lists, then follows the watch from the list's resourceVersion, starting it again from
// the last event seen when the server closes it.
func (w *ChangeWatch) run(ctx context.Context, ri dynamic.ResourceInterface, k Kind, ns string) {
	seen := map[types.UID]uint64{}
	rv, err := seed(ctx, ri, seen, w.seeded)
	if err != nil {
		if ctx.Err() == nil {
			w.fail(watchError(k, ns, "list", err))
		}
		return
	}
	for ctx.Err() == nil {
		wi, err := ri.Watch(ctx, metav1.ListOptions{ResourceVersion: rv, AllowWatchBookmarks: true})
		if err != nil {
			if ctx.Err() == nil {
				w.fail(watchError(k, ns, "watch", err))
			}
			return
		}
		rv, err = w.follow(ctx, wi, seen, rv)
		wi.Stop()
		if err != nil {
			w.fail(watchError(k, ns, "watch", err))
			return
		}
	}
}

// follow counts the events of one watch and returns the last resourceVersion seen.
func (w *ChangeWatch) follow(ctx context.Context, wi watch.Interface, seen map[types.UID]uint64, rv string) (string, error) {
	for {
		select {
		case <-ctx.Done():
			return rv, nil
		case ev, ok := <-wi.ResultChan():
			if !ok {
				return rv, nil
			}
			if ev.Type == watch.Error {
				return rv, apierrors.FromObject(ev.Object)
			}
			u, ok := ev.Object.(*unstructured.Unstructured)
			if !ok {
				continue
			}
			rv = u.GetResourceVersion()
			w.received(ev.Type, u, Changed(seen, ev.Type, u))
		}
	}
}

// seeded records the spec state of a listed object.
func (w *ChangeWatch) seeded(u *unstructured.Unstructured) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.spec.seed(u, w.now())
	w.ready.seed(u)
}

// seed lists the objects into seen, and each into each, up to maxObjects, and returns the
// list's resourceVersion (a paged list's pages share it). Objects beyond the bound are not
// seen: their first change counts.
func seed(ctx context.Context, ri dynamic.ResourceInterface, seen map[types.UID]uint64, each func(*unstructured.Unstructured)) (string, error) {
	opts := metav1.ListOptions{Limit: pageSize}
	for {
		l, err := ri.List(ctx, opts)
		if err != nil {
			return "", err
		}
		for i := range l.Items {
			seen[l.Items[i].GetUID()] = fingerprint(&l.Items[i])
			each(&l.Items[i])
		}
		if l.GetContinue() == "" || len(seen) >= maxObjects {
			return l.GetResourceVersion(), nil
		}
		opts.Continue = l.GetContinue()
	}
}

// Changed records the event in seen and reports whether it is a change a controller is handed:
// a creation, a deletion, or a modification of the generation, labels, annotations, finalizers
// or deletion timestamp. Bookmarks and status-only modifications are not. Kinds that keep no
// generation (ConfigMaps, Secrets) have no status either: every modification counts. seen
// holds at most maxFollowed objects: one past them is not remembered, and each of its
// modifications counts.
func Changed(seen map[types.UID]uint64, t watch.EventType, u *unstructured.Unstructured) bool {
	uid := u.GetUID()
	remember := func(f uint64) {
		if _, known := seen[uid]; known || len(seen) < maxFollowed() {
			seen[uid] = f
		}
	}
	switch t {
	case watch.Added:
		_, known := seen[uid]
		remember(fingerprint(u))
		return !known
	case watch.Deleted:
		delete(seen, uid)
		return true
	case watch.Modified:
		f := fingerprint(u)
		before, known := seen[uid]
		remember(f)
		return !known || before != f || u.GetGeneration() == 0
	}
	return false
}

// fingerprint hashes what a change that is not status-only alters.
func fingerprint(u *unstructured.Unstructured) uint64 {
	h := fnv.New64a()
	meta := struct {
		Generation  int64             `json:"g"`
		Labels      map[string]string `json:"l"`
		Annotations map[string]string `json:"a"`
		Finalizers  []string          `json:"f"`
		Deleting    bool              `json:"d"`
	}{u.GetGeneration(), u.GetLabels(), u.GetAnnotations(), u.GetFinalizers(), u.GetDeletionTimestamp() != nil}
	b, _ := json.Marshal(meta) // maps are written in key order
	_, _ = h.Write(b)
	return h.Sum64()
}

func watchError(k Kind, ns, verb string, err error) string {
	return requestError(k, ns, verb, "verbs list and watch", err)
}
