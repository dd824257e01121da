package events

import (
	"errors"

	"context"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"

	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

var now = time.Date(2026, 11, 26, 8, 0, 0, 0, time.UTC)

func event(ns, name, typ, reason, component, apiVersion, kind, object string, count int32, last time.Time, msg string) *corev1.Event {
	return &corev1.Event{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, CreationTimestamp: metav1.NewTime(last.Add(-time.Hour))},
		Type: typ, Reason: reason, Message: msg, Count: count, LastTimestamp: metav1.NewTime(last),
		Source:         corev1.EventSource{Component: component},
		InvolvedObject: corev1.ObjectReference{APIVersion: apiVersion, Kind: kind, Namespace: ns, Name: object}}
}

// client serves evs and answers access reviews with allowed(namespace) for core/v1 events,
// as to a user who may not list events.k8s.io/v1 events.
func client(allowed func(ns string) bool, evs ...runtime.Object) *fake.Clientset {
	return clientOf(func(group, ns string) bool { return group == "" && allowed(ns) }, evs...)
}

// clientOf serves evs and answers access reviews with allowed(group, namespace).
func clientOf(allowed func(group, ns string) bool, evs ...runtime.Object) *fake.Clientset {
	c := fake.NewClientset(evs...)
	c.PrependReactor("create", "selfsubjectaccessreviews", func(a k8stesting.Action) (bool, runtime.Object, error) {
		r := a.(k8stesting.CreateAction).GetObject().(*authorizationv1.SelfSubjectAccessReview)
		r.Status.Allowed = allowed(r.Spec.ResourceAttributes.Group, r.Spec.ResourceAttributes.Namespace)
		return true, r, nil
	})
	return c
}

var replicaset = Controller{ID: "kube-system/kcm replicaset", Components: Components("kube-controller-manager", "replicaset"),
	Kinds: []Kind{{Group: "apps", Kind: "ReplicaSet"}}}

func TestReadGroupsTheControllersWarningsOfTheWindow(t *testing.T) {
	since := now.Add(-time.Minute)
	c := client(func(string) bool { return true },
		event("shop", "a1", "Warning", "FailedCreate", "replicaset-controller", "apps/v1", "ReplicaSet", "web", 3, now.Add(-30*time.Second), "pods \"web-x\" is forbidden: exceeded quota: no-pods"),
		event("shop", "a2", "Warning", "FailedCreate", "replicaset-controller", "apps/v1", "ReplicaSet", "web", 2, now.Add(-10*time.Second), "(combined from similar events): pods \"web-y\" is forbidden:\n exceeded quota: no-pods"),
		// On a ReplicaSet, reported by someone else: it speaks of the kind the controller reconciles.
		event("shop", "b", "Warning", "Oops", "someone", "apps/v1", "ReplicaSet", "api", 1, now.Add(-5*time.Second), "oops"),
		// Too old, Normal, of another controller's kind and component: not kept.
		event("shop", "c", "Warning", "FailedCreate", "replicaset-controller", "apps/v1", "ReplicaSet", "old", 9, now.Add(-time.Hour), "old"),
		event("shop", "d", "Normal", "SuccessfulCreate", "replicaset-controller", "apps/v1", "ReplicaSet", "web", 1, now, "created"),
		event("shop", "e", "Warning", "BackOff", "kubelet", "v1", "Pod", "web-z", 4, now, "back-off"))
	v := Read(context.Background(), c, Request{Namespace: "kube-system", ClusterWide: []string{"kcm replicaset"}, Since: since,
		Controllers: []Controller{replicaset}})
	if len(v.Notes) != 0 || len(v.Namespaces) != 1 || v.Namespaces[0] != "" {
		t.Fatalf("namespaces %q, notes %q: want all namespaces, no note", v.Namespaces, v.Notes)
	}
	if len(v.Groups) != 2 {
		t.Fatalf("groups %+v, want FailedCreate on shop/web and Oops on shop/api", v.Groups)
	}
	g := v.Groups[0]
	if g.Reason != "Oops" || g.Object != "shop/api" {
		t.Errorf("newest first: %+v", g)
	}
	g = v.Groups[1]
	if g.Reason != "FailedCreate" || g.Kind != "ReplicaSet" || g.Object != "shop/web" || g.Count != 5 || !g.LastSeen.Equal(now.Add(-10*time.Second)) ||
		g.Message != `pods "web-y" is forbidden: exceeded quota: no-pods` || g.Reporter != "replicaset-controller" {
		t.Errorf("the FailedCreate group: %+v", g)
	}
	if got := v.Of("kube-system/kcm", "replicaset"); len(got) != 2 {
		t.Errorf("Of the replicaset controller: %+v", got)
	}
	if got := v.Of("kube-system/kcm", "deployment"); len(got) != 0 {
		t.Errorf("Of the deployment controller: %+v", got)
	}
}

func TestReadNotesWhatMayNotBeRead(t *testing.T) {
	e := event("kube-system", "a", "Warning", "FailedCreate", "replicaset-controller", "apps/v1", "ReplicaSet", "web", 1, now, "m")
	req := Request{Namespace: "kube-system", ClusterWide: []string{"kcm replicaset"}, Since: now.Add(-time.Minute), Controllers: []Controller{replicaset}}
	v := Read(context.Background(), client(func(ns string) bool { return ns != "" }, e), req)
	if len(v.Namespaces) != 1 || v.Namespaces[0] != "kube-system" || len(v.Groups) != 1 {
		t.Errorf("without list cluster-wide, the namespace is read: %+v", v)
	}
	if len(v.Notes) != 1 || !strings.Contains(v.Notes[0], "needs RBAC verb list on events cluster-wide") {
		t.Errorf("notes %q", v.Notes)
	}
	v = Read(context.Background(), client(func(string) bool { return false }, e), req)
	if len(v.Groups) != 0 || len(v.Namespaces) != 0 || len(v.Notes) != 2 ||
		!strings.Contains(v.Notes[1], "the Warning events in namespace kube-system were not read: needs RBAC verb list on events in namespace kube-system") {
		t.Errorf("without list anywhere: %+v", v)
	}
	c := client(func(string) bool { return true }, e)
	c.PrependReactor("list", "events", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, errForbidden()
	})
	v = Read(context.Background(), c, Request{Namespace: "kube-system", Since: req.Since, Controllers: req.Controllers})
	if len(v.Groups) != 0 || len(v.Notes) != 1 || !strings.Contains(v.Notes[0], "needs RBAC verb list on events in namespace kube-system") {
		t.Errorf("a list refused after the review: %+v", v)
	}
}

func TestReadIsBounded(t *testing.T) {
	defer func(e, g int) { maxEvents, maxGroups = e, g }(maxEvents, maxGroups)
	maxEvents, maxGroups = 4, 2
	var evs []runtime.Object
	for i, name := range []string{"a", "b", "c", "d", "e", "f"} {
		evs = append(evs, event("ops", name, "Warning", "FailedCreate", "replicaset-controller", "apps/v1", "ReplicaSet", name, 1, now.Add(time.Duration(i)*time.Second), "m"))
	}
	v := Read(context.Background(), client(func(string) bool { return true }, evs...), Request{Namespace: "ops", Since: now.Add(-time.Minute), Controllers: []Controller{replicaset}})
	if v.Read != 4 || len(v.Groups) != 2 || !v.Capped || v.Groups[0].Object != "ops/d" {
		t.Errorf("read %d, groups %+v, capped %v: want 4 read, the newest 2 groups kept", v.Read, v.Groups, v.Capped)
	}
	if len(v.Notes) != 1 || !strings.Contains(v.Notes[0], "only the newest 2 of 4 groups") {
		t.Errorf("notes %q", v.Notes)
	}
}

func TestComponents(t *testing.T) {
	for _, c := range []struct{ runtime, name, want string }{
		{"kube-controller-manager", "replicaset", "replicaset-controller"},
		{"kube-controller-manager", "endpoint_slice", "endpoint-slice-controller"},
		{"kube-controller-manager", "replicationmanager", "replication-controller"},
		{"controller-runtime", "workload", "workload workload-controller"},
	} {
		if got := strings.Join(Components(c.runtime, c.name), " "); got != c.want {
			t.Errorf("Components(%s, %s) = %q, want %q", c.runtime, c.name, got, c.want)
		}
	}
}

func errForbidden() error {
	return apierrors.NewForbidden(schema.GroupResource{Resource: "events"}, "", errors.New("no"))
}
