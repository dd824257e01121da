package objects

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var discovery = []*metav1.APIResourceList{
	{GroupVersion: "v1", APIResources: []metav1.APIResource{
		{Name: "namespaces", Kind: "Namespace", Verbs: []string{"list", "get"}},
		{Name: "pods", Kind: "Pod", Namespaced: true, Verbs: []string{"list"}},
		{Name: "pods/status", Kind: "Pod", Namespaced: true, Verbs: []string{"get"}},
		{Name: "events", Kind: "Event", Namespaced: true, Verbs: []string{"list"}},
	}},
	{GroupVersion: "events.k8s.io/v1", APIResources: []metav1.APIResource{{Name: "events", Kind: "Event", Namespaced: true, Verbs: []string{"list"}}}},
	{GroupVersion: "apps/v1", APIResources: []metav1.APIResource{
		{Name: "deployments", Kind: "Deployment", Namespaced: true, Verbs: []string{"list"}},
		{Name: "replicasets", Kind: "ReplicaSet", Namespaced: true, Verbs: []string{"list"}},
	}},
	{GroupVersion: "demo.ctrldiag.dev/v1alpha1", APIResources: []metav1.APIResource{{Name: "workloads", Kind: "Workload", Namespaced: true, Verbs: []string{"list"}}}},
	{GroupVersion: "source.toolkit.fluxcd.io/v1", APIResources: []metav1.APIResource{{Name: "gitrepositories", Kind: "GitRepository", Namespaced: true, Verbs: []string{"list"}}}},
	{GroupVersion: "cert-manager.io/v1", APIResources: []metav1.APIResource{{Name: "certificates", Kind: "Certificate", Namespaced: true, Verbs: []string{"list"}}}},
}

func bound(bs []Binding) string {
	var s []string
	for _, b := range bs {
		s = append(s, b.Controller.Name+"="+b.Kind.GroupResource())
	}
	return strings.Join(s, " ")
}

func TestResolve(t *testing.T) {
	cs := []Controller{
		{Target: "a", Name: "workload", Runtime: "controller-runtime"},
		{Target: "a", Name: "git_repository", Runtime: "controller-runtime"}, // "_" ignored
		{Target: "a", Name: "event", Runtime: "controller-runtime"},          // two groups: ambiguous
		{Target: "a", Name: "reconciler", Runtime: "controller-runtime"},     // no such kind
		{Target: "k", Name: "deployment", Runtime: "kube-controller-manager"},
		{Target: "k", Name: "certificate", Runtime: "kube-controller-manager"}, // not cert-manager's
		{Target: "k", Name: "garbage_collector_attempt_to_delete", Runtime: "kube-controller-manager"},
		{Target: "s", Name: "namespace", Runtime: "kube-apiserver"}, // the API server's own queues reconcile no kind
		{Target: "b", Name: "custom", Runtime: "controller-runtime"},
		{Target: "b", Name: "missing", Runtime: "controller-runtime"},
	}
	overrides := map[string]schema.GroupKind{"custom": {Group: "apps", Kind: "ReplicaSet"}, "missing": {Group: "x.io", Kind: "Nope"}}
	bs, notes := Resolve(cs, discovery, overrides)
	if got, want := bound(bs), "workload=workloads.demo.ctrldiag.dev git_repository=gitrepositories.source.toolkit.fluxcd.io deployment=deployments.apps custom=replicasets.apps"; got != want {
		t.Errorf("bound %s\nwant  %s", got, want)
	}
	joined := strings.Join(notes, "\n")
	for _, want := range []string{"controller event may reconcile any of Event, events.k8s.io/Event: name its kind with --controller-kind event=GROUP/KIND",
		"--controller-kind missing=x.io/Nope: the API server serves no such kind"} {
		if !strings.Contains(joined, want) {
			t.Errorf("notes lack %q:\n%s", want, joined)
		}
	}
	if len(notes) != 2 {
		t.Errorf("notes: %q", notes)
	}
	if k := bs[0].Kind; !k.Namespaced || k.Version != "v1alpha1" || k.Kind != "Workload" {
		t.Errorf("kind: %+v", k)
	}
}

func TestParseOverride(t *testing.T) {
	for in, want := range map[string]string{
		"gitrepository=source.toolkit.fluxcd.io/GitRepository": "gitrepository source.toolkit.fluxcd.io GitRepository",
		"ns=Namespace":  "ns  Namespace",
		"ns=/Namespace": "ns  Namespace",
	} {
		name, gk, err := ParseOverride(in)
		if err != nil || name+" "+gk.Group+" "+gk.Kind != want {
			t.Errorf("%s: %q %v %v", in, name, gk, err)
		}
	}
	for _, bad := range []string{"", "x", "=Kind", "x=", "x=a/b/c", "x=group/"} {
		if _, _, err := ParseOverride(bad); err == nil || !strings.Contains(err.Error(), "NAME=GROUP/KIND") {
			t.Errorf("%q: err %v", bad, err)
		}
	}
}

// The full lists of the bindings' group versions say which kinds have a /status subresource;
// a group version not asked (its list missing) leaves its kinds unmarked.
func TestMarkStatusSubresources(t *testing.T) {
	bs, _ := Resolve([]Controller{{Name: "deployment", Runtime: "kube-controller-manager"}, {Name: "replicaset", Runtime: "kube-controller-manager"},
		{Name: "workload", Runtime: "controller-runtime"}, {Name: "certificate", Runtime: "controller-runtime"}}, discovery, nil)
	if gvs := GroupVersions(bs); len(gvs) != 3 || gvs[0].String() != "apps/v1" {
		t.Errorf("group versions %v, want apps/v1, demo.ctrldiag.dev/v1alpha1, cert-manager.io/v1", gvs)
	}
	MarkStatusSubresources(bs, []*metav1.APIResourceList{
		{GroupVersion: "apps/v1", APIResources: []metav1.APIResource{
			{Name: "deployments", Kind: "Deployment"}, {Name: "deployments/status", Kind: "Deployment"},
			{Name: "replicasets", Kind: "ReplicaSet"}, {Name: "replicasets/scale", Kind: "Scale"}}},
		{GroupVersion: "demo.ctrldiag.dev/v1alpha1", APIResources: []metav1.APIResource{{Name: "workloads", Kind: "Workload"}}},
		nil,
	})
	want := map[string]bool{"deployments": false, "replicasets": true, "workloads": true, "certificates": false}
	for _, b := range bs {
		if b.Kind.NoStatusSubresource != want[b.Kind.Resource] {
			t.Errorf("%s: no /status subresource %v, want %v", b.Kind.GroupResource(), b.Kind.NoStatusSubresource, want[b.Kind.Resource])
		}
	}
}
