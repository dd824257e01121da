package engine

import (
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// The log is read of the leader's pod only: never a standby's, nor of a pod of unknown role
// beside its workload's leader; a lone pod without leader election is read; files never.
func TestLogTargets(t *testing.T) {
	pod := func(name, workload string, leader map[string]float64) model.Target {
		return model.Target{Facts: model.Facts{Target: target.Target{Kind: target.KindPod, Namespace: "ops", Name: name, Workload: workload},
			Pod: &corev1.Pod{}}, Snapshots: []*health.Snapshot{{Time: time.Now(), Leader: leader}}}
	}
	ts := []model.Target{
		pod("op-a", "deployment/op", map[string]float64{"op-lock": 1}),
		pod("op-b", "deployment/op", map[string]float64{"op-lock": 0}),
		pod("op-c", "deployment/op", nil),
		pod("lone", "deployment/lone", nil),
		{Facts: model.Facts{Target: target.Target{Kind: target.KindFile, Name: "x"}}, Snapshots: []*health.Snapshot{{}}},
	}
	if got := logTargets(ts); !slices.Equal(got, []int{0, 3}) {
		t.Errorf("read the logs of %v, want [0 3]", got)
	}
}
