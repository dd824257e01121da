package findings

import (
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// A kube-controller-manager queue exports no reconcile counts: a ReplicaSet its controller
// cannot create pods for (ReplicaFailure FailedCreate, over a quota) for longer than the
// window is persistent-failures on the replicaset queue, naming the object and the reason; one
// that failed only within the window (a rollout's moment) or none failing raise nothing.
func TestObjectsOfABuiltInControllerThatKeepFailing(t *testing.T) {
	kcm := func(oldest float64, failed int) Target {
		q := health.QueueStats{Target: "kube-system/kcm:10257", Queue: "replicaset", Window: 10 * time.Second,
			Depth: 0, DepthBefore: 0, AddsPerSecond: 0.2, CompletionsPerSecond: 0.2, QueueP99: 0.005, WorkP99: 0.01,
			Waits: 2, Worked: 2, ActiveWorkers: 0, MaxWorkers: 5}
		snap := &health.Snapshot{Queues: map[string]*health.Queue{"replicaset": {Name: "replicaset"}}}
		tg := Target{ID: "kube-system/kcm:10257", Kind: KubeControllerManager, Prev: snap, Cur: snap, Window: 10 * time.Second,
			Queues: []health.QueueStats{q}}
		s := objects.Summary{Kind: objects.Kind{Group: "apps", Kind: "ReplicaSet", Resource: "replicasets", Namespaced: true},
			Controllers: []string{"kube-system/kcm:10257 replicaset"}, Total: 12, Failed: failed}
		if failed > 0 {
			s.Reasons = []objects.Reason{{Condition: "ReplicaFailure", Reason: "FailedCreate", Count: failed,
				Objects: []string{"shop/web-5d8f"}, Message: `pods "web-5d8f-x" is forbidden: exceeded quota: no-pods`, OldestSeconds: oldest}}
		}
		tg.Objects = &objects.View{Kinds: []objects.Summary{s}}
		return tg
	}
	fs := Evaluate([]Target{kcm(95, 1)}, nil, nil, DefaultThresholds())
	if checks(fs) != "warning:persistent-failures" {
		t.Fatalf("findings %q, want persistent-failures", checks(fs))
	}
	if f := fs[0]; f.Queue != "replicaset" || !strings.Contains(f.Summary, "1 of 12 ReplicaSet objects failed: FailedCreate (1), the oldest for 1m35s") ||
		!strings.Contains(evidenceValue(f, "ReplicaFailure FailedCreate"), "shop/web-5d8f") {
		t.Errorf("%s on %s: %s (evidence %+v)", f.Check, f.Queue, f.Summary, f.Evidence)
	}
	for _, tg := range []Target{kcm(4, 1), kcm(0, 0)} {
		if fs := Evaluate([]Target{tg}, nil, nil, DefaultThresholds()); len(fs) != 0 {
			t.Errorf("findings %q on a failure within the window or none", checks(fs))
		}
	}
}
