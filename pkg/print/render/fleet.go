package render

import (
	"fmt"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// fleetColumns are table columns that, over a fleet, start with the row's cluster.
type fleetColumns struct {
	*columns
	fleet     bool
	noHeaders bool // --no-headers: the header line is left out
}

func (c *fleetColumns) header(cells []string) {
	if c.noHeaders {
		return
	}
	if c.fleet {
		cells = append([]string{"CLUSTER"}, cells...)
	}
	row(c, cells)
}

// row writes cells whose first is a target ID; over a fleet the cluster comes first and the
// target is named within it.
func (c *fleetColumns) row(cluster string, cells []string) {
	if c.fleet {
		cl, id := splitCluster(cluster, cells[0])
		cells = append([]string{cl, id}, cells[1:]...)
	}
	row(c, cells)
}

// splitCluster is a target ID's cluster cell ("-" without one) and the ID within the cluster.
func splitCluster(cluster, id string) (string, string) {
	if cluster == "" {
		return "-", id
	}
	return cluster, strings.TrimPrefix(id, cluster+"/")
}

// clusterOf finds the cluster a target ID starts with among the fleet's: the longest.
func clusterOf(id string, fleet []view.ClusterSummary) string {
	best := ""
	for _, c := range fleet {
		if c.Cluster != "" && strings.HasPrefix(id, c.Cluster+"/") && len(c.Cluster) > len(best) {
			best = c.Cluster
		}
	}
	return best
}

// fleetSection is the report's first table over a fleet: one row per cluster, worst first,
// with its worst finding and the controller that raised it.
func fleetSection(r view.Report) section {
	s := section{Title: "Fleet: clusters, worst first",
		Header: []string{"CLUSTER", "READ", "CRITICAL", "WARNING", "INFO", "WORST FINDING", "TARGET", "QUEUE"},
		Drop:   []string{"INFO", "QUEUE", "TARGET"}}
	for _, c := range r.Fleet {
		worst, tgt, queue := "none", "-", "-"
		if w := c.Worst; w != nil {
			worst = fmt.Sprintf("%s %s", w.Code, w.Check) // its severity is counted beside it
			_, tgt = splitCluster(c.Cluster, w.Target)
			queue = dash(w.Queue)
		}
		cl, _ := splitCluster(c.Cluster, "")
		s.Rows = append(s.Rows, []string{cl, fmt.Sprintf("%d/%d", c.Read, c.Targets), fmt.Sprint(c.Critical), fmt.Sprint(c.Warning),
			fmt.Sprint(c.Info), worst, tgt, queue})
	}
	s.Note = fmt.Sprintf("%d clusters. The sections below name each row's cluster; the findings are worst first across the fleet.", len(r.Fleet))
	return s
}

// withClusterColumn splits the TARGET column of a section, and of its sub-tables, into CLUSTER
// and TARGET over a fleet.
func withClusterColumn(s section, fleet []view.ClusterSummary) section {
	if len(s.Header) > 0 && s.Header[0] == "TARGET" {
		s.Header = append([]string{"CLUSTER"}, s.Header...)
		rows := make([][]string, len(s.Rows))
		for i, r := range s.Rows {
			cl, id := splitCluster(clusterOf(r[0], fleet), r[0])
			rows[i] = append([]string{cl, id}, r[1:]...)
		}
		s.Rows = rows
	}
	for i := range s.Sub {
		s.Sub[i] = withClusterColumn(s.Sub[i], fleet)
	}
	return s
}
