package controller

import (
	"context"
	"errors"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/api/v1alpha1"
)

func newClient(t *testing.T, objs ...client.Object) client.Client {
	t.Helper()
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	if err := v1alpha1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).
		WithStatusSubresource(&v1alpha1.Workload{}).Build()
}

func workload(spec v1alpha1.WorkloadSpec) *v1alpha1.Workload {
	return &v1alpha1.Workload{ObjectMeta: metav1.ObjectMeta{Name: "w", Namespace: "ns", Generation: 3}, Spec: spec}
}

var req = reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "ns", Name: "w"}}

func TestReconcileCreatesChildrenAndStatus(t *testing.T) {
	c := newClient(t, workload(v1alpha1.WorkloadSpec{Children: 3, PayloadBytes: 10,
		RequeueAfter: metav1.Duration{Duration: time.Minute}}))
	r := &Reconciler{Client: c}
	res, err := r.Reconcile(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if res.RequeueAfter != time.Minute {
		t.Errorf("RequeueAfter = %v, want 1m", res.RequeueAfter)
	}
	var cms corev1.ConfigMapList
	if err := c.List(context.Background(), &cms, client.MatchingLabels{LabelWorkload: "w"}); err != nil {
		t.Fatal(err)
	}
	if len(cms.Items) != 3 {
		t.Fatalf("children = %d, want 3", len(cms.Items))
	}
	for _, cm := range cms.Items {
		if len(cm.Data[payloadKey]) != 10 || len(cm.OwnerReferences) != 1 || cm.Labels[LabelManaged] != "true" {
			t.Errorf("child %s: payload %d bytes, owners %v, labels %v", cm.Name, len(cm.Data[payloadKey]), cm.OwnerReferences, cm.Labels)
		}
	}
	var got v1alpha1.Workload
	if err := c.Get(context.Background(), req.NamespacedName, &got); err != nil {
		t.Fatal(err)
	}
	if got.Status.ObservedGeneration != 3 || got.Status.Children != 3 || got.Status.LastReconcileTime == nil ||
		!meta.IsStatusConditionTrue(got.Status.Conditions, v1alpha1.ConditionReady) {
		t.Errorf("status = %+v", got.Status)
	}

	// fewer children: the surplus goes
	got.Spec.Children = 1
	if err := c.Update(context.Background(), &got); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Reconcile(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if err := c.List(context.Background(), &cms, client.MatchingLabels{LabelWorkload: "w"}); err != nil {
		t.Fatal(err)
	}
	if len(cms.Items) != 1 || cms.Items[0].Name != ChildName("w", 0) {
		t.Errorf("children after scale down = %v", cms.Items)
	}
}

func TestReconcileInjectedFailure(t *testing.T) {
	c := newClient(t, workload(v1alpha1.WorkloadSpec{FailureRate: 1}))
	r := &Reconciler{Client: c}
	var version string
	for i := 1; i <= 2; i++ {
		_, err := r.Reconcile(context.Background(), req)
		if err == nil || !strings.Contains(err.Error(), "injected failure") {
			t.Fatalf("attempt %d: err = %v, want injected failure", i, err)
		}
		var got v1alpha1.Workload
		if err := c.Get(context.Background(), req.NamespacedName, &got); err != nil {
			t.Fatal(err)
		}
		ready := meta.FindStatusCondition(got.Status.Conditions, v1alpha1.ConditionReady)
		if ready == nil || ready.Status != metav1.ConditionFalse || ready.Reason != "InjectedFailure" || ready.ObservedGeneration != 3 {
			t.Fatalf("attempt %d: Ready = %+v, want False/InjectedFailure for generation 3", i, ready)
		}
		// The second failure writes nothing: the condition did not change.
		if i == 2 && got.ResourceVersion != version {
			t.Errorf("the second failure wrote the status again (resourceVersion %s -> %s)", version, got.ResourceVersion)
		}
		version = got.ResourceVersion
	}
}

func TestReconcileFailureReasonAndMessage(t *testing.T) {
	c := newClient(t, workload(v1alpha1.WorkloadSpec{FailureRate: 1, FailureReason: "RepositoryNotFound",
		FailureMessage: "repository not found"}))
	_, err := (&Reconciler{Client: c}).Reconcile(context.Background(), req)
	if err == nil || !strings.Contains(err.Error(), "repository not found") {
		t.Fatalf("err = %v, want the failure message", err)
	}
	var got v1alpha1.Workload
	if err := c.Get(context.Background(), req.NamespacedName, &got); err != nil {
		t.Fatal(err)
	}
	if ready := meta.FindStatusCondition(got.Status.Conditions, v1alpha1.ConditionReady); ready == nil ||
		ready.Reason != "RepositoryNotFound" || ready.Message != "repository not found" {
		t.Errorf("Ready = %+v", ready)
	}
}

// A stuck reconcile blocks in an HTTP call to a backend that never answers, made without a
// deadline (what a goroutine dump must show), and returns the context's error on shutdown.
func TestReconcileStuckReturnsOnCancel(t *testing.T) {
	r := &Reconciler{Client: newClient(t, workload(v1alpha1.WorkloadSpec{Stuck: true}))}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { _, err := r.Reconcile(ctx, req); done <- err }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var dump strings.Builder
		if err := pprof.Lookup("goroutine").WriteTo(&dump, 2); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(dump.String(), "net/http.(*Client).Do") && strings.Contains(dump.String(), "controller.(*backend).call") {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("stuck reconcile returned: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no goroutine blocked in net/http.(*Client).Do called from (*backend).call:\n%s", dump.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("stuck reconcile returned %v after cancel, want the context's error", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("stuck reconcile did not return after cancel")
	}
}

func TestReconcileDelay(t *testing.T) {
	r := &Reconciler{Client: newClient(t, workload(v1alpha1.WorkloadSpec{ReconcileDelay: metav1.Duration{Duration: 100 * time.Millisecond}}))}
	start := time.Now()
	if _, err := r.Reconcile(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 100*time.Millisecond {
		t.Errorf("reconcile took %v, want >= 100ms", d)
	}
}

// A reconcile with spec.reconcileFor writes its status first and sleeps what is left after: it
// takes reconcileFor in all, and a slow write shortens its sleep instead of lengthening it.
func TestReconcileForWritesFirstThenSleepsTheRest(t *testing.T) {
	var written time.Time
	c := interceptor.NewClient(newClient(t, workload(v1alpha1.WorkloadSpec{ReconcileFor: metav1.Duration{Duration: 400 * time.Millisecond}})).(client.WithWatch),
		interceptor.Funcs{SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
			time.Sleep(100 * time.Millisecond) // a slow API server
			err := c.SubResource(sub).Patch(ctx, obj, patch, opts...)
			written = time.Now()
			return err
		}})
	r := &Reconciler{Client: c}
	start := time.Now()
	if _, err := r.Reconcile(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	end := time.Now()
	if written.IsZero() {
		t.Fatal("no status written")
	}
	if d := end.Sub(start); d < 400*time.Millisecond {
		t.Errorf("reconcile took %v, want 400ms in all", d)
	}
	if slept := end.Sub(written); slept < 50*time.Millisecond {
		t.Errorf("reconcile returned %v after its status write, want the rest of 400ms slept after it", slept)
	}
}

func TestReconcileMissingObject(t *testing.T) {
	r := &Reconciler{Client: newClient(t)}
	if res, err := r.Reconcile(context.Background(), req); err != nil || res != (reconcile.Result{}) {
		t.Errorf("missing object: %v, %v", res, err)
	}
}

func TestStatusNotRewrittenWhenUnchanged(t *testing.T) {
	c := newClient(t, workload(v1alpha1.WorkloadSpec{}))
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := &Reconciler{Client: c, Now: func() time.Time { return now }}
	for i := 0; i < 2; i++ {
		if _, err := r.Reconcile(context.Background(), req); err != nil {
			t.Fatal(err)
		}
		now = now.Add(time.Second)
	}
	var got v1alpha1.Workload
	_ = c.Get(context.Background(), req.NamespacedName, &got)
	if !got.Status.LastReconcileTime.Time.Equal(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("lastReconcileTime = %v, want the first reconcile's time", got.Status.LastReconcileTime)
	}
}
