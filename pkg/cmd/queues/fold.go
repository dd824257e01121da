package queues

import (
	"context"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/collect"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/replicas"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sample"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/scrape"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// foldStandbys groups the pods read into workloads, finds each one's leader (from the
// metrics, else from the Leases of the namespace when they may be listed) and folds the
// standby replicas' empty rows into the leader's.
func foldStandbys(ctx context.Context, plan *collect.Plan, results []sample.Result, stats []health.QueueStats,
	leaders map[string]float64) ([]health.QueueStats, []replicas.Group) {
	var reps []replicas.Replica
	for i, src := range plan.Sources {
		cs, ok := src.(*scrape.ClusterSource)
		if !ok || cs.Target.Kind != target.KindPod || len(results[i].Samples) == 0 {
			continue
		}
		t := cs.Target
		reps = append(reps, replicas.Replica{Target: t.ID(), Namespace: t.Namespace, Pod: t.Name,
			Workload: t.Workload, LeaderStatus: leaders[t.ID()]})
	}
	var holders []replicas.Holder
	if ns := replicas.Unsure(reps); len(ns) > 0 && plan.Kube != nil {
		holders = replicas.LeaseHolders(ctx, plan.Kube.Client, ns)
	}
	return replicas.Fold(stats, reps, holders)
}
