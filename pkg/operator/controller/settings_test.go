package controller

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

func TestSettingsReconcilerFailsWithTheConfigMapsError(t *testing.T) {
	bad := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "bad"},
		Data: map[string]string{SettingsErrorKey: "parse config.yaml: line 3"}}
	good := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "good"}, Data: map[string]string{"a": "b"}}
	r := &SettingsReconciler{Client: fake.NewClientBuilder().WithObjects(bad, good).Build()}
	req := func(name string) reconcile.Request {
		return reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "shop", Name: name}}
	}
	if _, err := r.Reconcile(context.Background(), req("bad")); err == nil || err.Error() != "parse config.yaml: line 3" {
		t.Errorf("bad: err %v, want the ConfigMap's error", err)
	}
	for _, name := range []string{"good", "gone"} {
		if _, err := r.Reconcile(context.Background(), req(name)); err != nil {
			t.Errorf("%s: err %v, want none", name, err)
		}
	}
}

// A ConfigMap's reconciles block from its block-at time on, until the operator stops; before
// it they do what the ConfigMap says.
func TestSettingsReconcilerBlocksFromBlockAt(t *testing.T) {
	now := time.Now()
	later := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "later"},
		Data: map[string]string{SettingsBlockAtKey: now.Add(time.Hour).Format(time.RFC3339Nano)}}
	past := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "past"},
		Data: map[string]string{SettingsBlockAtKey: now.Add(-time.Second).Format(time.RFC3339Nano)}}
	r := &SettingsReconciler{Client: fake.NewClientBuilder().WithObjects(later, past).Build()}
	req := func(name string) reconcile.Request {
		return reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "shop", Name: name}}
	}
	if _, err := r.Reconcile(context.Background(), req("later")); err != nil {
		t.Errorf("before block-at: err %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := r.Reconcile(ctx, req("past")); err == nil || time.Since(start) < 150*time.Millisecond {
		t.Errorf("past block-at: returned after %s with %v, want blocked until the context ended", time.Since(start), err)
	}
}
