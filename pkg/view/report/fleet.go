package report

import (
	"sort"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// Clusters maps every target's ID to its cluster and lists the distinct clusters, sorted
// ("" for targets without a cluster label, or read from a cluster rather than a store).
func Clusters(results []model.Target) (map[string]string, []string) {
	of := make(map[string]string, len(results))
	set := map[string]bool{}
	for _, r := range results {
		of[r.Target.ID()] = r.Target.Cluster
		set[r.Target.Cluster] = true
	}
	clusters := make([]string, 0, len(set))
	for c := range set {
		clusters = append(clusters, c)
	}
	sort.Strings(clusters)
	return of, clusters
}

// fleet lists each cluster's targets, and how many of them gave figures (read), when the
// targets span several clusters; view.Report.Recount tallies their findings.
func fleet(targets []model.Target, read map[string]bool) []view.ClusterSummary {
	_, clusters := Clusters(targets)
	if len(clusters) < 2 {
		return nil
	}
	by := map[string]*view.ClusterSummary{}
	out := make([]view.ClusterSummary, len(clusters))
	for i, c := range clusters {
		out[i].Cluster = c
		by[c] = &out[i]
	}
	for _, t := range targets {
		s := by[t.Target.Cluster]
		s.Targets++
		if read[t.Target.ID()] {
			s.Read++
		}
	}
	return out
}
