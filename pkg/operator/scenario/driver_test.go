package scenario

import (
	"context"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/api/v1alpha1"
)

// The driver heals a past incident once: after Heal, every object has failureRate 0.
func TestDriverHealsAfterTheDelay(t *testing.T) {
	s := runtime.NewScheme()
	if err := v1alpha1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	c := fake.NewClientBuilder().WithScheme(s).Build()
	sc := Scenario{Name: "incident", Objects: 3, Spec: same(v1alpha1.WorkloadSpec{FailureRate: 1, FailureReason: "Down"}),
		Heal: 300 * time.Millisecond}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- (&Driver{Client: c, Namespace: "ns", Scenario: sc}).Run(ctx) }()

	rates := func() []float64 {
		var l v1alpha1.WorkloadList
		if err := c.List(ctx, &l, client.InNamespace("ns")); err != nil {
			t.Fatal(err)
		}
		var out []float64
		for _, w := range l.Items {
			out = append(out, w.Spec.FailureRate)
		}
		return out
	}
	time.Sleep(100 * time.Millisecond)
	if r := rates(); len(r) != 3 || r[0] != 1 || r[1] != 1 || r[2] != 1 {
		t.Fatalf("before Heal the objects must fail: failure rates %v", r)
	}
	for {
		r := rates()
		if len(r) == 3 && r[0] == 0 && r[1] == 0 && r[2] == 0 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("not healed within 5s: failure rates %v", r)
		}
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run = %v", err)
	}
}
