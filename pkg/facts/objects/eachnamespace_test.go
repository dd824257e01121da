package objects

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	k8stesting "k8s.io/client-go/testing"
)

// A cluster-wide controller's kind the user may not list in all namespaces is read namespace
// by namespace where the user may list it, saying which; without namespaces to read (they may
// not be listed, or none allows the kind), in the report's namespace, saying why.
func TestPlaceEachNamespace(t *testing.T) {
	wide := Binding{Controller: Controller{Target: "kube-system/kcm", Name: "workload", ClusterWide: true}, Kind: workload}
	no := func(context.Context, Kind) (bool, error) { return false, nil }
	yes := func(context.Context, Kind) (bool, error) { return true, nil }
	head := "controller workload reconciles workloads.demo.ctrldiag.dev in every namespace, but you may not list them in all namespaces (needs RBAC verb list on workloads.demo.ctrldiag.dev cluster-wide)"
	asked := 0
	each := func(nss []string, unchecked int, err error) MayListEach {
		return func(_ context.Context, k Kind, ns string) ([]string, int, error) {
			asked++
			if k != workload || ns != "ns" {
				t.Errorf("asked about %s in %q", k.GroupResource(), ns)
			}
			return nss, unchecked, err
		}
	}
	for _, tc := range []struct {
		what string
		each MayListEach
		in   []string
		note string
	}{
		{"two namespaces", each([]string{"ns", "team-b"}, 0, nil), []string{"ns", "team-b"},
			head + ": read namespace by namespace in the 2 namespaces you may list them in (ns, team-b); the other namespaces were not allowed"},
		{"more than checked", each([]string{"team-b"}, 7, nil), []string{"team-b"},
			head + ": read namespace by namespace in the 1 namespace you may list them in (team-b); the other namespaces were not allowed, and 7 namespaces beyond the first 50 were not checked"},
		{"the namespace only", each([]string{"ns"}, 0, nil), []string{"ns"}, head + ", and may in namespace ns only: read there"},
		{"none", each(nil, 0, nil), []string{"ns"}, head + ", nor in any namespace checked: read in namespace ns only"},
		{"namespaces may not be listed", each(nil, 0, errors.New("needs RBAC verb list on namespaces")), []string{"ns"},
			head + ", and the namespaces you may list them in could not be found (needs RBAC verb list on namespaces): read in namespace ns only"},
		{"no answer", nil, []string{"ns"}, head + ": read in namespace ns only"},
	} {
		p, notes := Place(context.Background(), []Binding{wide}, "ns", no, nil, tc.each)
		if got := p.In(workload); strings.Join(got, ",") != strings.Join(tc.in, ",") || len(notes) != 1 || notes[0] != tc.note {
			t.Errorf("%s: read in %q, notes %q\nwant %q, %q", tc.what, got, notes, tc.in, tc.note)
		}
	}
	before := asked
	if p, _ := Place(context.Background(), []Binding{wide}, "ns", yes, nil, each([]string{"ns", "team-b"}, 0, nil)); strings.Join(p.In(workload), ",") != "" || asked != before {
		t.Errorf("listed in all namespaces, yet read in %q (asked each %d times)", p.In(workload), asked-before)
	}
}

// A kind read namespace by namespace is listed once in each, its objects summed up to the
// bound, and its summary names the namespaces.
func TestReadEachNamespace(t *testing.T) {
	c := fakeClient()
	var listed []string
	c.PrependReactor("list", "workloads", func(a k8stesting.Action) (bool, runtime.Object, error) {
		listed = append(listed, a.GetNamespace())
		l := &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": "demo.ctrldiag.dev/v1alpha1", "kind": "WorkloadList"}}
		u := obj("w-"+a.GetNamespace(), 1, 1, 0, "Ready=False/RepositoryNotFound/repository not found/1m")
		u.SetNamespace(a.GetNamespace())
		l.Items = []unstructured.Unstructured{*u}
		return true, l, nil
	})
	wide := Binding{Controller: Controller{Target: "kube-system/kcm", Name: "workload", ClusterWide: true}, Kind: workload}
	p := Places{Namespace: "ns", Each: map[Kind][]string{workload: {"ns", "team-b"}}}
	got, notes := Read(context.Background(), c, []Binding{wide}, p, now)
	if strings.Join(listed, ",") != "ns,team-b" || len(got) != 1 || len(notes) != 0 {
		t.Fatalf("listed in %q: %+v %q", listed, got, notes)
	}
	s := got[0]
	if s.Namespace != "" || strings.Join(s.Namespaces, ",") != "ns,team-b" || s.Total != 2 || s.Failed != 2 ||
		len(s.Reasons) != 1 || strings.Join(s.Reasons[0].Objects, ",") != "ns/w-ns,team-b/w-team-b" {
		t.Errorf("summary %+v", s)
	}

	defer func(n int) { maxObjects = n }(maxObjects)
	maxObjects = 1
	listed = nil
	got, notes = Read(context.Background(), c, []Binding{wide}, p, now)
	if strings.Join(listed, ",") != "ns" || len(got) != 1 || got[0].Total != 1 || !got[0].Capped ||
		len(notes) != 1 || notes[0] != "workloads.demo.ctrldiag.dev: only the first 1 objects in namespaces ns, team-b were read; the figures count those" {
		t.Errorf("capped: listed %q, %+v %q", listed, got, notes)
	}
}

// A kind read namespace by namespace is watched in each, its changes counted together.
func TestWatchChangesIn(t *testing.T) {
	gvr := workload.GVR()
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), map[schema.GroupVersionResource]string{gvr: "WorkloadList"})
	ctx := context.Background()
	w := WatchChangesIn(ctx, dyn, workload, []string{"ops", "team-b"}, 0)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		watching := map[string]bool{}
		for _, a := range dyn.Actions() {
			if a.GetVerb() == "watch" {
				watching[a.GetNamespace()] = true
			}
		}
		if watching["ops"] && watching["team-b"] {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("watching %v, want ops and team-b", watching)
		}
	}
	for _, ns := range []string{"ops", "team-b"} {
		u := changing("a-"+ns, 1, nil, "")
		u.SetNamespace(ns)
		if _, err := dyn.Resource(gvr).Namespace(ns).Create(ctx, u, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	var got Changes
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		w.mu.Lock()
		n := len(w.per)
		w.mu.Unlock()
		if n >= 2 || time.Now().After(deadline) {
			got, _, _ = w.Stop()
			break
		}
	}
	if got.Count != 2 || got.Error != "" || len(got.Top) != 2 || got.Top[0].Object != "ops/w-a-ops" || got.Top[1].Object != "team-b/w-a-team-b" {
		t.Errorf("changes %+v, want one creation in each namespace", got)
	}
}
