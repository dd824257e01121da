package scenario

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/api/v1alpha1"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/controller"
)

func TestEveryScenarioIsBoundedAndLabelled(t *testing.T) {
	want := []string{"apf-throttled", "errors", "failing", "failing-configmaps", "failing-then-stuck", "healthy", "hotloop", "long-reconcile", "memory", "past-incident", "periodic", "polling", "saturated", "slow", "slow-webhook", "stale", "starved", "steps", "stuck", "throttled", "throttled-unmetered", "warm-standby"}
	if got := strings.Join(Names(), ","); got != strings.Join(want, ",") {
		t.Fatalf("Names() = %s", got)
	}
	for _, s := range All() {
		objs := Objects(s, "ns")
		if len(objs) != s.Objects || s.Objects < 1 || s.Objects > 300 {
			t.Errorf("%s: %d objects, want 1..300", s.Name, len(objs))
		}
		if s.Touch.Every > 0 && float64(s.Touch.PerTick)/s.Touch.Every.Seconds() > 50 {
			t.Errorf("%s: more than 50 writes/s", s.Name)
		}
		for i, w := range objs {
			if w.Name != ObjectName(s.Name, i) || w.Namespace != "ns" ||
				w.Labels[controller.LabelManaged] != "true" || w.Labels[controller.LabelScenario] != s.Name {
				t.Errorf("%s: object %d = %s/%s %v", s.Name, i, w.Namespace, w.Name, w.Labels)
			}
			if w.Spec.Seed != int64(i) {
				t.Errorf("%s: object %d seed %d", s.Name, i, w.Spec.Seed)
			}
		}
		if s.Initial < 0 || s.Initial >= s.Objects || s.Initial > 0 && s.Touch.Skip < s.Initial {
			t.Errorf("%s: %d initial objects of %d, touches skip %d: the initial ones must never be touched",
				s.Name, s.Initial, s.Objects, s.Touch.Skip)
		}
		if s.Signature == "" {
			t.Errorf("%s: no signature", s.Name)
		}
	}
}

func TestScenarioSpecs(t *testing.T) {
	stuck, _ := Get("stuck")
	objs := Objects(stuck, "ns")
	if !objs[0].Spec.Stuck || objs[1].Spec.Stuck || stuck.Touch.Skip != 1 {
		t.Errorf("stuck: only the first object blocks and is never touched")
	}
	errs, _ := Get("errors")
	if Objects(errs, "ns")[0].Spec.FailureRate != 1 {
		t.Error("errors: failureRate must be 1")
	}
	thr, _ := Get("throttled")
	if thr.Client.QPS != 1 || thr.Client.Burst != 1 {
		t.Errorf("throttled: client %+v", thr.Client)
	}
	st, _ := Get("stale")
	if st.Cache.Index <= 0 || st.Cache.Transform <= 0 {
		t.Errorf("stale: cache delays %+v", st.Cache)
	}
	past, _ := Get("past-incident")
	if past.Heal <= 0 || Objects(past, "ns")[0].Spec.FailureRate != 1 {
		t.Errorf("past-incident: objects must fail until healed (heal %v)", past.Heal)
	}
	long, _ := Get("long-reconcile")
	lo := Objects(long, "ns")
	if lo[0].Spec.ReconcileDelay.Duration <= 30*time.Second || long.Touch.Skip != 1 || lo[1].Spec.ReconcileDelay.Duration != 0 {
		t.Errorf("long-reconcile: only the first object, never touched, reconciles past stuckAfter (30s)")
	}
	// One long item must stay under 1% of the completions of a 5s window, so that work p99 is
	// the fast items' (slow-reconcile judges p99).
	if perWindow := 5 * float64(long.Touch.PerTick) / long.Touch.Every.Seconds(); perWindow < 120 {
		t.Errorf("long-reconcile: %.0f fast reconciles per 5s, want >= 120", perWindow)
	}
	for _, s := range All() {
		if s.Warmup != (s.Name == "warm-standby") {
			t.Errorf("%s: warmup %v", s.Name, s.Warmup)
		}
	}
	if _, err := Get("nope"); err == nil || !strings.Contains(err.Error(), "healthy") {
		t.Errorf("unknown scenario error should list the names: %v", err)
	}
}

func TestHealPatchClearsTheFailureRate(t *testing.T) {
	b, err := json.Marshal(HealPatch())
	if err != nil || string(b) != `{"spec":{"failureRate":null}}` {
		t.Errorf("heal patch = %s, %v", b, err)
	}
}

func TestTouchPatch(t *testing.T) {
	w := &v1alpha1.Workload{Spec: v1alpha1.WorkloadSpec{Children: 3}}
	now := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	p := TouchPatch(Touch{FlipChildren: true}, w, 1, now)
	if p["spec"].(map[string]any)["children"] != int32(4) {
		t.Errorf("odd touch should add a child: %v", p)
	}
	p = TouchPatch(Touch{FlipChildren: true}, w, 2, now)
	if p["spec"].(map[string]any)["children"] != int32(3) {
		t.Errorf("even touch should restore the count: %v", p)
	}
	ann := p["metadata"].(map[string]any)["annotations"].(map[string]any)
	if ann[controller.AnnotationChangedAt] != "2026-01-02T03:04:05.000000006Z" {
		t.Errorf("changed-at = %v", ann)
	}
	if _, ok := TouchPatch(Touch{}, w, 1, now)["spec"]; ok {
		t.Error("a plain touch must not change the spec")
	}
}

// starved: the initial objects are created before the manager starts and never written
// again (a write would turn them into priority-0 events); the others are the driver's.
func TestStarvedPreparesOnlyTheMissingInitialObjects(t *testing.T) {
	sc, err := Get("starved")
	if err != nil {
		t.Fatal(err)
	}
	if sc.Initial == 0 || Objects(sc, "ns")[0].Spec.ReconcileDelay.Duration <= 0 || sc.Touch.Every <= 0 {
		t.Fatalf("starved: %+v", sc)
	}
	s := runtime.NewScheme()
	if err := v1alpha1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	existing := Objects(sc, "ns")[0]
	existing.Annotations = map[string]string{controller.AnnotationChangedAt: "before"}
	other := Objects(Scenario{Name: "healthy", Objects: 1, Spec: same(v1alpha1.WorkloadSpec{})}, "ns")[0]
	c := fake.NewClientBuilder().WithScheme(s).WithObjects(existing, other).Build()
	d := &Driver{Client: c, Namespace: "ns", Scenario: sc}
	if err := d.Prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	var list v1alpha1.WorkloadList
	if err := c.List(context.Background(), &list, client.InNamespace("ns")); err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for _, w := range list.Items {
		names[w.Name] = w.Annotations[controller.AnnotationChangedAt]
	}
	if len(names) != sc.Initial || names[ObjectName(sc.Name, 0)] != "before" {
		t.Errorf("after Prepare: %d objects (want the %d initial ones, the other scenario's gone), the existing one changed-at %q (want untouched)",
			len(names), sc.Initial, names[ObjectName(sc.Name, 0)])
	}
	if _, ok := names[ObjectName(sc.Name, sc.Initial)]; ok {
		t.Error("Prepare created an object beyond the initial ones")
	}
}
