package findings

import (
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// failingView is what the objects of a controller whose six of eleven objects fail say.
func failingView(target string) *objects.View {
	return &objects.View{Kinds: []objects.Summary{{
		Kind:        objects.Kind{Group: "demo.ctrldiag.dev", Version: "v1alpha1", Kind: "Workload", Resource: "workloads", Namespaced: true},
		Controllers: []string{target + " ctrl"}, Total: 11, Failed: 6,
		Reasons: []objects.Reason{
			{Condition: "Ready=False", Reason: "DependencyUnavailable", Count: 4, Objects: []string{"ns/a", "ns/b", "ns/c"},
				Message: "dial tcp 10.96.0.7:443: connect: connection refused", OldestSeconds: 300},
			{Condition: "Ready=False", Reason: "RepositoryNotFound", Count: 2, Objects: []string{"ns/e", "ns/f"}, Message: "repository not found"},
		},
	}}}
}

// Objects whose status says they fail, of a controller whose failures back off (none in this
// window, 30 since it started): a warning that names them and their reasons, and the queue is
// FAILING, not "No findings".
func TestFailingObjectsAreNamed(t *testing.T) {
	tg := crTarget(queue(nil), map[string]float64{"error": 30, "success": 50}, map[string]float64{"error": 30, "success": 52}, 30)
	tg.Queues[0].ReconcileErrors = 0
	tg.Objects = failingView(tg.ID)
	fs := Evaluate([]Target{tg}, nil, nil, DefaultThresholds())
	if got := checks(fs); got != "warning:persistent-failures" {
		t.Fatalf("got %q", got)
	}
	f := fs[0]
	if !strings.Contains(f.Summary, "6 of 11 Workload objects failed: DependencyUnavailable (4), RepositoryNotFound (2)") {
		t.Errorf("summary: %s", f.Summary)
	}
	ev := map[string]string{}
	for _, e := range f.Evidence {
		ev[e.Name] = e.Value
	}
	if v := ev["Ready=False DependencyUnavailable"]; !strings.Contains(v, "4: ns/a, ns/b, ns/c, ...") || !strings.Contains(v, "connection refused") {
		t.Errorf("evidence of the first reason: %q (all: %v)", v, ev)
	}
	if ev["failed workloads.demo.ctrldiag.dev"] != "6 of 11 in all namespaces" {
		t.Errorf("evidence: %v", ev)
	}
	Judge(&tg, DefaultThresholds())
	if tg.Queues[0].Status != health.StatusFailing || !strings.Contains(tg.Queues[0].Reason, "(CD213)") {
		t.Errorf("status %s %q", tg.Queues[0].Status, tg.Queues[0].Reason)
	}
}

// The same objects, but the controller never returned an error (it requeues them quietly):
// said, as info. And a view that names another target's controller says nothing here.
func TestFailingObjectsWithoutErrors(t *testing.T) {
	tg := crTarget(queue(nil), map[string]float64{"success": 50}, map[string]float64{"success": 52}, 0)
	tg.Objects = failingView(tg.ID)
	if got := checks(Evaluate([]Target{tg}, nil, nil, DefaultThresholds())); got != "info:persistent-failures" {
		t.Errorf("no errors: %q", got)
	}
	tg.Objects = failingView("other/op:8080")
	if got := checks(Evaluate([]Target{tg}, nil, nil, DefaultThresholds())); got != "" {
		t.Errorf("another target's objects: %q", got)
	}
}

// A storm stays a storm when objects are read, and carries them as evidence.
func TestRetryStormCarriesFailingObjects(t *testing.T) {
	tg := crTarget(queue(nil), map[string]float64{"error": 0}, map[string]float64{"error": 200}, 200)
	tg.Objects = failingView(tg.ID)
	fs := Evaluate([]Target{tg}, nil, nil, DefaultThresholds())
	if checks(fs) != "warning:retry-storm" {
		t.Fatalf("got %q", checks(fs))
	}
	found := false
	for _, e := range fs[0].Evidence {
		found = found || e.Name == "Ready=False RepositoryNotFound"
	}
	if !found {
		t.Errorf("evidence: %+v", fs[0].Evidence)
	}
}
