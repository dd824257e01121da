package report

import (
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// signals say, for each target read, which signals of newer versions its last page gave and
// why the others are absent: a check that needs one is silent without it, and the user should
// know which.
func signals(targets []model.Target) []view.Signal {
	var out []view.Signal
	for _, t := range targets {
		if !t.Read() {
			continue
		}
		last, id := t.Last(), t.ID()
		add := func(name string, present bool, absent string) {
			s := view.Signal{Target: id, Signal: name, Present: present}
			if !present {
				s.Absent = absent
			}
			out = append(out, s)
		}
		switch findings.KindOf(last, t.PodLabels()) {
		case findings.ControllerRuntime:
			add("reconcile timeouts", last.Families["controller_runtime_reconcile_timeouts_total"],
				"controller-runtime before v0.23")
			add("priority queue", priorityQueue(last), "plain queues: controller-runtime before v0.23, or the priority queue turned off")
		case findings.KubeControllerManager:
			add("stale-sync skips", len(last.StaleSyncSkips) > 0, "no sync skipped yet, or Kubernetes before 1.36")
			if f := t.Flagz; f != nil {
				add("/flagz", f.Values != nil, f.Note)
			}
		}
	}
	return out
}

// priorityQueue says whether a queue of the page is controller-runtime's priority queue: its
// depth carries a priority.
func priorityQueue(s *health.Snapshot) bool {
	for _, q := range s.Queues {
		for p := range q.DepthByPriority {
			if p != "" {
				return true
			}
		}
	}
	return false
}
