package collect

import (
	"context"
	"strings"
	"testing"

	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

// The pods' WATCH_NAMESPACE(S) are resolved from the ConfigMaps of their namespace where the
// user may get configmaps there (asked once per namespace), never from a Secret, and only the
// pods whose containers take them from elsewhere are looked at.
func TestWatchEnvs(t *testing.T) {
	envFrom := func(ns, name string, from ...corev1.EnvFromSource) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "manager", EnvFrom: from}, {Name: "sidecar"}}}}
	}
	cm := func(name string) corev1.EnvFromSource {
		return corev1.EnvFromSource{ConfigMapRef: &corev1.ConfigMapEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: name}}}
	}
	secret := corev1.EnvFromSource{SecretRef: &corev1.SecretEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: "creds"}}}
	pods := map[string]*corev1.Pod{
		"ops/scoped": envFrom("ops", "scoped", cm("env")),
		"ops/secret": envFrom("ops", "secret", cm("env"), secret),
		"locked/op":  envFrom("locked", "op", cm("env")),
		"ops/plain":  {ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "plain"}, Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "manager"}}}},
	}
	client := fake.NewClientset(
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "env"}, Data: map[string]string{"WATCH_NAMESPACE": "ops", "TOKEN": "s3cret"}},
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "locked", Name: "env"}, Data: map[string]string{"WATCH_NAMESPACE": ""}},
	)
	reviews := map[string]int{}
	client.PrependReactor("create", "selfsubjectaccessreviews", func(a k8stesting.Action) (bool, runtime.Object, error) {
		r := a.(k8stesting.CreateAction).GetObject().(*authorizationv1.SelfSubjectAccessReview)
		ra := r.Spec.ResourceAttributes
		reviews[ra.Verb+" "+ra.Resource+" "+ra.Namespace]++
		r.Status.Allowed = ra.Namespace != "locked"
		return true, r, nil
	})
	client.PrependReactor("get", "secrets", func(a k8stesting.Action) (bool, runtime.Object, error) {
		t.Errorf("a Secret was read: %v", a)
		return false, nil, nil
	})
	got := watchEnvs(context.Background(), client, pods)

	if w := got["ops/scoped"]["manager"]; w == nil || w.Values["WATCH_NAMESPACE"] != "ops" || len(w.Unresolved) != 0 {
		t.Errorf("ops/scoped: %+v", w)
	}
	if w := got["ops/secret"]["manager"]; w == nil || len(w.Unresolved) != 2 || !strings.Contains(strings.Join(w.Notes, ";"), "Secret creds (envFrom), which is never read") {
		t.Errorf("ops/secret: %+v", w)
	}
	if w := got["locked/op"]["manager"]; w == nil || len(w.Unresolved) != 2 || !strings.Contains(w.Notes[0], "needs RBAC verb get on configmaps in namespace locked") {
		t.Errorf("locked/op: %+v", w)
	}
	if got["ops/plain"] != nil || got["ops/scoped"]["sidecar"] != nil {
		t.Errorf("resolved a container that takes nothing from elsewhere: %+v", got)
	}
	if reviews["get configmaps ops"] != 1 || reviews["get configmaps locked"] != 1 {
		t.Errorf("access reviews %v, want one per namespace", reviews)
	}
	for _, ws := range got {
		for _, w := range ws {
			for _, v := range w.Values {
				if v == "s3cret" {
					t.Errorf("kept a key of the ConfigMap other than the variables: %+v", w)
				}
			}
		}
	}
}
