package objects

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	dynamicfake "k8s.io/client-go/dynamic/fake"
)

func changing(uid string, gen int64, annotations map[string]string, status string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "demo.ctrldiag.dev/v1alpha1", "kind": "Workload"}}
	u.SetNamespace("ops")
	u.SetName("w-" + uid)
	u.SetUID(types.UID(uid))
	u.SetGeneration(gen)
	u.SetAnnotations(annotations)
	_ = unstructured.SetNestedField(u.Object, status, "status", "phase")
	return u
}

func TestChanged(t *testing.T) {
	seen := map[types.UID]uint64{}
	steps := []struct {
		what string
		ev   watch.EventType
		u    *unstructured.Unstructured
		want bool
	}{
		{"created", watch.Added, changing("a", 1, nil, ""), true},
		{"status only", watch.Modified, changing("a", 1, nil, "Ready"), false},
		{"annotation", watch.Modified, changing("a", 1, map[string]string{"changed-at": "1"}, "Ready"), true},
		{"same annotation, status again", watch.Modified, changing("a", 1, map[string]string{"changed-at": "1"}, "Busy"), false},
		{"spec (generation)", watch.Modified, changing("a", 2, map[string]string{"changed-at": "1"}, "Busy"), true},
		{"a known object added again (re-list)", watch.Added, changing("a", 2, map[string]string{"changed-at": "1"}, "Busy"), false},
		{"an object not seen before", watch.Modified, changing("b", 3, nil, ""), true},
		{"no generation kept: every modification", watch.Modified, changing("c", 0, nil, ""), true},
		{"and again", watch.Modified, changing("c", 0, nil, ""), true},
		{"bookmark", watch.Bookmark, changing("a", 2, nil, ""), false},
		{"deleted", watch.Deleted, changing("a", 2, nil, ""), true},
	}
	for _, s := range steps {
		if got := Changed(seen, s.ev, s.u); got != s.want {
			t.Errorf("%s: changed %v, want %v", s.what, got, s.want)
		}
	}
}

// The watch counts from its start: the objects there before are not changes, a status write
// is not, an annotation and a deletion are.
func TestWatchChanges(t *testing.T) {
	gvr := workload.GVR()
	scheme := runtime.NewScheme()
	before := changing("a", 1, nil, "")
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(scheme, map[schema.GroupVersionResource]string{gvr: "WorkloadList"}, before)
	ctx := context.Background()
	w := WatchChanges(ctx, dyn, workload, "ops", 0)
	ri := dyn.Resource(gvr).Namespace("ops")
	waitWatching(t, dyn)
	mustUpdate := func(u *unstructured.Unstructured) {
		t.Helper()
		if _, err := ri.Update(ctx, u, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	mustUpdate(changing("a", 1, nil, "Ready"))                                  // status only
	mustUpdate(changing("a", 1, map[string]string{"changed-at": "1"}, "Ready")) // counted
	if _, err := ri.Create(ctx, changing("b", 1, nil, ""), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := ri.Delete(ctx, "w-a", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	var got Changes
	var spec *SpecLatency
	var ready *TimeToReady
	for {
		time.Sleep(20 * time.Millisecond)
		w.mu.Lock()
		n := 0
		for _, o := range w.per {
			n += o.Count
		}
		w.mu.Unlock()
		if n >= 3 || time.Now().After(deadline) {
			got, spec, ready = w.Stop()
			break
		}
	}
	if got.Count != 3 || got.Error != "" || got.Seconds <= 0 {
		t.Errorf("changes %+v, want 3 (annotation, creation, deletion) and no error", got)
	}
	if len(got.ByCount) != 2 || got.ByCount[2] != 1 || got.ByCount[1] != 1 || len(got.Top) != 2 ||
		got.Top[0] != (ObjectChanges{Object: "ops/w-a", Count: 2}) || got.Top[1] != (ObjectChanges{Object: "ops/w-b", Count: 1}) {
		t.Errorf("spread %v, top %v; want w-a twice (annotation, deletion), w-b once", got.ByCount, got.Top)
	}
	// The Workloads here carry no observedGeneration: the creation of w-b is a spec change
	// that nothing says was acted on.
	if spec == nil || spec.Changes != 1 || spec.Pending != 1 || !spec.NoObservedGeneration || spec.Seconds != got.Seconds {
		t.Errorf("spec latency %+v, want the creation pending and no observedGeneration", spec)
	}
	// Nor any Ready condition: the creation is not Ready, and the kind says it has no Ready.
	if ready == nil || ready.Changes != 1 || ready.Pending != 1 || !ready.NoReadyCondition || ready.Seconds != got.Seconds {
		t.Errorf("time to Ready %+v, want the creation pending and no Ready condition", ready)
	}
}

// One object that changes 100 times can be worked on only as often as one worker finishes
// it: Served caps each object's changes.
func TestServed(t *testing.T) {
	c := Changes{Count: 130, Seconds: 10, ByCount: map[int]int{100: 1, 2: 15}}
	if got := c.Served(10); got != (10+30)/10.0 {
		t.Errorf("served %g, want 4 (the hot object 10 times, 15 others twice, over 10s)", got)
	}
	if got := c.Served(1000); got != 13 {
		t.Errorf("served %g with no cap, want all 13/s", got)
	}
	if got := (Changes{Count: 50, Seconds: 10}).Served(1); got != 5 {
		t.Errorf("served %g without the spread (an older snapshot), want the count, 5/s", got)
	}
}

// waitWatching waits until the fake client was asked to watch.
func waitWatching(t *testing.T, dyn *dynamicfake.FakeDynamicClient) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		for _, a := range dyn.Actions() {
			if a.GetVerb() == "watch" {
				return
			}
		}
	}
	t.Fatal("the watch did not start")
}
