package apiserver

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/metadata"
)

func discovery() []*metav1.APIResourceList {
	list := []string{"list", "watch"}
	return []*metav1.APIResourceList{
		{GroupVersion: "v1", APIResources: []metav1.APIResource{
			{Name: "configmaps", Namespaced: true, Kind: "ConfigMap", Verbs: list},
			{Name: "pods", Namespaced: true, Kind: "Pod", Verbs: list},
			{Name: "pods/status", Namespaced: true, Kind: "Pod", Verbs: []string{"get", "patch"}},
			{Name: "namespaces", Kind: "Namespace", Verbs: list},
			{Name: "bindings", Namespaced: true, Kind: "Binding", Verbs: []string{"create"}},
		}},
		{GroupVersion: "apps/v1", APIResources: []metav1.APIResource{{Name: "deployments", Namespaced: true, Kind: "Deployment", Verbs: list}}},
		{GroupVersion: "example.com/v2", APIResources: []metav1.APIResource{{Name: "deployments", Namespaced: true, Kind: "Deployment", Verbs: list}}},
	}
}

func hook(name string, ops []string, groups []string, resources ...string) Webhook {
	return Webhook{Name: name, Rules: []Rule{{Operations: ops, APIGroups: groups, Resources: resources, Scope: "*"}}}
}

// The probe's kinds are the main resources the webhooks' rules intercept for a write, each
// once, resolved through discovery (an API group "*" is every group that serves the
// resource), at most max; wildcards, unknown resources and kinds past max are notes.
func TestProbeKinds(t *testing.T) {
	create := []string{"CREATE"}
	hooks := []Webhook{
		hook("cm", []string{"CREATE", "UPDATE"}, []string{""}, "configmaps", "pods/status"),
		hook("cm-again", create, []string{""}, "configmaps", "pods/*"),
		hook("connect", []string{"CONNECT"}, []string{""}, "namespaces"),
		hook("any-group", create, []string{"*"}, "deployments"),
		hook("everything", create, []string{""}, "*"),
		hook("unknown", create, []string{"x.io"}, "gadgets"),
	}
	kinds, notes := ProbeKinds(hooks, discovery(), 3)
	want := []ProbeKind{{Version: "v1", Resource: "configmaps", Namespaced: true}, {Version: "v1", Resource: "pods", Namespaced: true},
		{Group: "apps", Version: "v1", Resource: "deployments", Namespaced: true}}
	if !reflect.DeepEqual(kinds, want) {
		t.Errorf("kinds %+v\nwant %+v", kinds, want)
	}
	all := strings.Join(notes, "\n")
	for _, n := range []string{"webhook everything intercepts every resource", "webhook unknown intercepts gadgets.x.io, which API discovery does not list",
		"looks at 3 kinds at most: deployments.example.com not probed"} {
		if !strings.Contains(all, n) {
			t.Errorf("notes lack %q:\n%s", n, all)
		}
	}
	if strings.Contains(all, "namespaces") {
		t.Errorf("a CONNECT-only rule is probed: %s", all)
	}
}

func controlled(group, version, kind string, controller bool) metav1.OwnerReference {
	return metav1.OwnerReference{APIVersion: schema.GroupVersion{Group: group, Version: version}.String(), Kind: kind, Name: "x", Controller: &controller}
}

// An owner owns a kind when at least one listed object's controller ownerReference is of its
// kind (group and kind; the version does not matter); a plain ownerReference, another group
// or no object does not make it an owner.
func TestMatch(t *testing.T) {
	cm := ProbeKind{Version: "v1", Resource: "configmaps", Namespaced: true}
	objs := []metav1.ObjectMeta{
		{Name: "a", OwnerReferences: []metav1.OwnerReference{controlled("demo.ctrldiag.dev", "v1alpha1", "Workload", true)}},
		{Name: "b", OwnerReferences: []metav1.OwnerReference{controlled("demo.ctrldiag.dev", "v1beta1", "Workload", true)}},
		{Name: "c", OwnerReferences: []metav1.OwnerReference{controlled("other.dev", "v1", "Workload", true), controlled("demo.ctrldiag.dev", "v1", "Gadget", false)}},
		{Name: "d"},
	}
	owners := []Owner{
		{Controller: "ops/op:8080 workload", Group: "demo.ctrldiag.dev", Kind: "Workload", Namespace: "ops"},
		{Controller: "ops/op:8080 gadget", Group: "demo.ctrldiag.dev", Kind: "Gadget", Namespace: "ops"},
		{Controller: "ops/op:8080 settings", Group: "", Kind: "ConfigMap", Namespace: "ops"},
	}
	got := Match(cm, "ops", objs, owners)
	want := []Owned{{Controller: "ops/op:8080 workload", Resource: "configmaps", Namespaced: true, OwnedBy: "ownerReferences", OwnerKind: "Workload", Objects: 2, Listed: 4, Namespace: "ops"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("owned %+v\nwant %+v", got, want)
	}
	if got := Match(cm, "ops", nil, owners); len(got) != 0 {
		t.Errorf("no object, yet owned: %+v", got)
	}
	o := Ownership{Owned: got}
	if o.Of("ops/op:8080 gadget") != nil || (*Ownership)(nil).Of("x") != nil || (*Admission)(nil).Owned("x") != nil {
		t.Errorf("Of gives kinds to a controller that owns none")
	}
}

// fakeMeta answers every list with the objects of its namespace, and counts the lists.
type fakeMeta struct {
	metadata.ResourceInterface
	gvr    schema.GroupVersionResource
	ns     string
	by     map[string][]metav1.PartialObjectMetadata
	err    map[string]error
	calls  *[]string
	limits *[]int64
}

func (f fakeMeta) Resource(gvr schema.GroupVersionResource) metadata.Getter {
	f.gvr = gvr
	return f
}

func (f fakeMeta) Namespace(ns string) metadata.ResourceInterface {
	f.ns = ns
	return f
}

func (f fakeMeta) List(_ context.Context, opts metav1.ListOptions) (*metav1.PartialObjectMetadataList, error) {
	key := f.gvr.Resource + "@" + f.ns
	*f.calls = append(*f.calls, key)
	*f.limits = append(*f.limits, opts.Limit)
	if err := f.err[key]; err != nil {
		return nil, err
	}
	return &metav1.PartialObjectMetadataList{Items: f.by[key]}, nil
}

// The probe lists one page (limit 200) per kind and namespace where owners' objects were
// read, at most maxProbeLists; a list refused by the access review or by the API server
// is a note naming the permission and the others still count.
func TestProbeBounds(t *testing.T) {
	var calls []string
	var limits []int64
	child := metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: "w-child-0", OwnerReferences: []metav1.OwnerReference{controlled("demo.ctrldiag.dev", "v1alpha1", "Workload", true)}}}
	meta := fakeMeta{by: map[string][]metav1.PartialObjectMetadata{"configmaps@ops": {child}, "configmaps@": {child, child}},
		err:   map[string]error{"secrets@ops": apierrors.NewForbidden(schema.GroupResource{Resource: "secrets"}, "", errors.New("no"))},
		calls: &calls, limits: &limits}
	owners := []Owner{{Controller: "ops/op:8080 workload", Group: "demo.ctrldiag.dev", Kind: "Workload", Namespace: "ops"},
		{Controller: "sys/wide:8080 workload", Group: "demo.ctrldiag.dev", Kind: "Workload", Namespace: ""}}
	kinds := []ProbeKind{{Version: "v1", Resource: "configmaps", Namespaced: true}, {Version: "v1", Resource: "secrets", Namespaced: true},
		{Version: "v1", Resource: "services", Namespaced: true}}
	for i := range 5 {
		kinds = append(kinds, ProbeKind{Version: "v1", Resource: fmt.Sprintf("kind%d", i), Namespaced: true})
	}
	may := func(_ context.Context, k ProbeKind, ns string) (bool, error) { return k.Resource != "services", nil }
	o := Probe(context.Background(), meta, kinds, owners, may)
	// Two places for each kind (namespace ops, and every namespace): services is refused by
	// the review in both, and kind1 to kind4 are past the bound.
	if len(calls) != maxProbeLists-2 || calls[len(calls)-1] != "kind0@ops" {
		t.Errorf("lists %v: want %d, the last kind0@ops", calls, maxProbeLists-2)
	}
	for _, l := range limits {
		if l != probePage {
			t.Errorf("list limit %d, want one page of %d", l, probePage)
		}
	}
	want := []Owned{
		{Controller: "sys/wide:8080 workload", Resource: "configmaps", Namespaced: true, OwnedBy: "ownerReferences", OwnerKind: "Workload", Objects: 2, Listed: 2},
		{Controller: "ops/op:8080 workload", Resource: "configmaps", Namespaced: true, OwnedBy: "ownerReferences", OwnerKind: "Workload", Objects: 1, Listed: 1, Namespace: "ops"},
	}
	if !reflect.DeepEqual(o.Owned, want) {
		t.Errorf("owned %+v\nwant %+v", o.Owned, want)
	}
	notes := strings.Join(o.Notes, "\n")
	for _, n := range []string{"may not list secrets in namespace ops to find the kinds controllers own: needs RBAC verb list on secrets",
		"may not list services in namespace ops", "may not list services in all namespaces", "makes 8 lists at most: kind1 in all namespaces, kind1 in namespace ops, kind2"} {
		if !strings.Contains(notes, n) {
			t.Errorf("notes lack %q:\n%s", n, notes)
		}
	}
	if got := Probe(context.Background(), meta, kinds, nil, may); len(got.Owned)+len(got.Notes) != 0 {
		t.Errorf("no owner, yet the probe ran: %+v", got)
	}
}

// An owned kind adds its creates, updates and deletes to a controller's writes, each once.
func TestWritesOfOwned(t *testing.T) {
	cm := Reconciled{Resource: "configmaps", Namespaced: true}
	ws := WritesOf("controller-runtime", "workload", &Reconciled{Group: "demo.ctrldiag.dev", Resource: "workloads", Namespaced: true}, []Reconciled{cm, cm})
	var got []string
	for _, w := range ws {
		got = append(got, w.String())
	}
	want := "UPDATE workloads.demo.ctrldiag.dev, UPDATE workloads.demo.ctrldiag.dev/status, CREATE configmaps, UPDATE configmaps, DELETE configmaps"
	if strings.Join(got, ", ") != want {
		t.Errorf("writes %s\nwant %s", strings.Join(got, ", "), want)
	}
	kcm := WritesOf("kube-controller-manager", "replicaset", nil, []Reconciled{{Resource: "pods", Namespaced: true}})
	if len(kcm) != 3 {
		t.Errorf("kube-controller-manager's table and an owned kind repeat writes: %v", kcm)
	}
}
