package scenario

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/api/v1alpha1"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/controller"
)

func TestEveryScenarioIsBoundedAndLabelled(t *testing.T) {
	want := []string{"errors", "failing", "healthy", "hotloop", "long-reconcile", "memory", "past-incident", "saturated", "slow", "stale", "stuck", "throttled", "warm-standby"}
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
