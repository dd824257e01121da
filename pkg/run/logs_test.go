package run

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/logs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view/report"
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

// countingLogs answers every log asked for, and counts the asks.
type countingLogs struct {
	source.Source
	asked int
}

func (c *countingLogs) Log(context.Context, model.Target, logs.PodLogRequest) *logs.Log {
	c.asked++
	return &logs.Log{}
}

// Once the run's context has ended (the overall deadline), no log is asked for: a source that
// answers at once (a snapshot) would otherwise be asked for every target past the deadline.
func TestReadLogsStopsWhenTheContextEnds(t *testing.T) {
	var in report.Input
	for i := range 20 {
		in.Targets = append(in.Targets, model.Target{Facts: model.Facts{Target: target.Target{Kind: target.KindPod, Namespace: "ops", Name: fmt.Sprint("op-", i)},
			Pod: &corev1.Pod{}}, Snapshots: []*health.Snapshot{{Time: time.Now()}}})
	}
	src := &countingLogs{}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	readLogs(ctx, Env{Source: src}, LogConfig{}, time.Second, in)
	if src.asked != 0 {
		t.Errorf("%d logs asked for after the context ended, want none", src.asked)
	}
	readLogs(context.Background(), Env{Source: src}, LogConfig{}, time.Second, in)
	if src.asked != 20 {
		t.Errorf("%d logs asked for, want the 20 targets'", src.asked)
	}
}
