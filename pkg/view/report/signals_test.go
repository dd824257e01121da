package report

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/testpages"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// Each target read says which signals of newer versions its page gave, and why the others are
// absent: a controller-runtime page of the priority queue era with reconcile timeouts, an
// older one without either, and a kube-controller-manager that skipped no sync and whose
// /flagz the proxy could not read.
func TestSignalsSayWhatNewerVersionsGive(t *testing.T) {
	now := time.Date(2026, 12, 5, 8, 0, 0, 0, time.UTC)
	page := func(text string) model.Page { return model.Page{Families: testpages.ParseText(t, text), Time: now} }
	newer := model.Of(model.Facts{Target: target.Target{Kind: target.KindPod, Namespace: "ns", Name: "new", Port: 8080}}, []model.Page{page(`
workqueue_depth{name="w",controller="w",priority="0"} 1
workqueue_adds_total{name="w",controller="w"} 3
controller_runtime_reconcile_total{controller="w",result="success"} 3
controller_runtime_reconcile_timeouts_total{controller="w"} 0
`)})
	older := model.Of(model.Facts{Target: target.Target{Kind: target.KindPod, Namespace: "ns", Name: "old", Port: 8080}}, []model.Page{page(`
workqueue_depth{name="w",controller="w"} 1
workqueue_adds_total{name="w",controller="w"} 3
controller_runtime_reconcile_total{controller="w",result="success"} 3
`)})
	kcm := model.Of(model.Facts{Target: target.Target{Kind: target.KindPod, Namespace: "kube-system", Name: "kcm", Port: 10257},
		Pod:   &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"component": "kube-controller-manager"}}},
		Flagz: &knobs.Flagz{Note: "not read: 403 Forbidden"}}, []model.Page{page(`
workqueue_depth{name="replicaset"} 0
workqueue_adds_total{name="replicaset"} 3
workqueue_depth{name="garbage_collector_attempt_to_delete"} 0
`)})
	unread := model.Of(model.Facts{Target: target.Target{Kind: target.KindPod, Namespace: "ns", Name: "down", Port: 8080}}, nil)

	got := signals([]model.Target{newer, older, kcm, unread})
	want := []view.Signal{
		{Target: "ns/new:8080", Signal: "reconcile timeouts", Present: true},
		{Target: "ns/new:8080", Signal: "priority queue", Present: true},
		{Target: "ns/old:8080", Signal: "reconcile timeouts", Absent: "controller-runtime before v0.23"},
		{Target: "ns/old:8080", Signal: "priority queue", Absent: "plain queues: controller-runtime before v0.23, or the priority queue turned off"},
		{Target: "kube-system/kcm:10257", Signal: "stale-sync skips", Absent: "no sync skipped yet, or Kubernetes before 1.36"},
		{Target: "kube-system/kcm:10257", Signal: "/flagz", Absent: "not read: 403 Forbidden"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}
