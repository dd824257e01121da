package run

import (
	"context"
	"fmt"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/logs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view/report"
)

// LogConfig says whether report reads the controllers' logs.
type LogConfig struct {
	// Off is --no-logs: no log is read.
	Off bool
	// LimitBytes bounds each log read (0: logs.PodLogLimitBytes).
	LimitBytes int64
}

// readLogs reads, once per target, the recent log of the container behind each pod target
// read that is not a standby (the leader's pod only: a standby's log says nothing of the
// reconciles), from the window's start less logs.PodLogLookback, and makes what it says a fact
// of the target. It stops when ctx ends (the overall deadline): the logs not read by then are
// not facts of their targets.
func readLogs(ctx context.Context, env Env, cfg LogConfig, timeout time.Duration, in report.Input) {
	lr, ok := env.Source.(source.LogReader)
	if !ok || cfg.Off {
		return
	}
	picked := logTargets(in.Targets)
	if len(picked) == 0 {
		return
	}
	line := env.progress(fmt.Sprintf("Reading the log of %s", printable.Plural(len(picked), "controller")), len(picked))
	defer line.Stop()
	for _, i := range picked {
		if ctx.Err() != nil {
			return
		}
		t := &in.Targets[i]
		from := t.First().Time
		if len(t.Snapshots) < 2 {
			from = t.Last().Time.Add(-logs.PodLogLookback)
		}
		req := logs.PodLogRequest{Since: from.Add(-logs.PodLogLookback), From: from, LimitBytes: cfg.LimitBytes, Timeout: timeout}
		t.Log = lr.Log(ctx, *t, req)
		line.Step()
	}
}

// logTargets are the indexes of the pod targets read whose log is read: not a standby, nor a
// replica of unknown role beside its workload's leader.
func logTargets(ts []model.Target) []int {
	leading := map[string]bool{}
	for _, t := range ts {
		if t.Read() && t.Target.Workload != "" && t.Last().Leadership().Role == health.RoleLeader {
			leading[t.Target.Namespace+"/"+t.Target.Workload] = true
		}
	}
	var out []int
	for i, t := range ts {
		if !t.Read() || t.Target.Kind != target.KindPod || t.Pod == nil {
			continue
		}
		switch t.Last().Leadership().Role {
		case health.RoleStandby:
			continue
		case health.RoleUnknown:
			if t.Target.Workload != "" && leading[t.Target.Namespace+"/"+t.Target.Workload] {
				continue
			}
		}
		out = append(out, i)
	}
	return out
}
