package run

import (
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view/report"
)

// judgedQueues is the model of the targets read through the stages after it, as `queues` and
// every frame of `top` go through them: the findings set each queue's STATUS, the standby
// replicas fold into their leader's rows, and the queue table is the view.
type judgedQueues struct {
	list view.QueueList
	// targets are what the findings rules judge; reps the pods read as replicas of their
	// workload, holders the Lease holders asked for those whose metrics do not say who leads.
	targets []findings.Target
	reps    []model.Replica
	holders []model.Holder
}

// judgeQueues takes the targets read to the queue table; leases gives the Lease holders of
// the namespaces whose replicas' metrics do not say who leads (nil when it cannot tell).
func judgeQueues(read []model.Target, th findings.Thresholds, leases func(namespaces []string) []model.Holder) judgedQueues {
	stats, errs, curs, targets := analyse(read, th)
	reps := replicasOf(read, curs)
	var holders []model.Holder
	if ns := model.UnsureLeader(reps); len(ns) > 0 {
		holders = leases(ns)
	}
	stats, groups := model.FoldReplicas(stats, reps, holders)
	list := view.NewQueueList(stats, errs)
	list.Replicas = groups
	list.SetClusters(report.Clusters(read))
	return judgedQueues{list: list, targets: targets, reps: reps, holders: holders}
}
