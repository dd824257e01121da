package report

import (
	"sort"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/source"
)

// ClusterSummary is one cluster of a fleet (targets read from a Prometheus server that holds
// several clusters): what was read there, what was found, and its worst finding.
type ClusterSummary struct {
	// Cluster is the value of the cluster label; "" for targets without it.
	Cluster  string `json:"cluster"`
	Targets  int    `json:"targets"`
	Read     int    `json:"read"`
	Critical int    `json:"critical"`
	Warning  int    `json:"warning"`
	Info     int    `json:"info"`
	// Worst is the cluster's first finding in the report's order (worst first); nil when the
	// cluster raised none.
	Worst *FindingRef `json:"worst,omitempty"`
}

// FindingRef points at a finding of the report's list.
type FindingRef struct {
	Code     string            `json:"code"`
	Check    string            `json:"check"`
	Severity findings.Severity `json:"severity"`
	Target   string            `json:"target"`
	Queue    string            `json:"queue,omitempty"`
	Summary  string            `json:"summary"`
}

// Clusters maps every target's ID to its cluster and lists the distinct clusters, sorted
// ("" for targets without a cluster label, or read from a cluster rather than a store).
func Clusters(results []source.Result) (map[string]string, []string) {
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

// fleet summarises each cluster when the targets span several, worst first: by the severity
// of its worst finding, then by how many critical findings, warnings and unread targets it
// has. fs are the report's findings, worst first; read tells which targets gave figures.
func fleet(targets []source.Result, fs []findings.Finding, read map[string]bool) []ClusterSummary {
	of, clusters := Clusters(targets)
	if len(clusters) < 2 {
		return nil
	}
	by := map[string]*ClusterSummary{}
	out := make([]ClusterSummary, len(clusters))
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
	for _, f := range fs {
		c, ok := of[f.Target]
		if !ok {
			c, ok = clusterByPrefix(f.Target, clusters)
		}
		if !ok {
			continue
		}
		s := by[c]
		switch f.Severity {
		case findings.Critical:
			s.Critical++
		case findings.Warning:
			s.Warning++
		default:
			s.Info++
		}
		if s.Worst == nil {
			s.Worst = &FindingRef{Code: f.Code, Check: f.Check, Severity: f.Severity, Target: f.Target, Queue: f.Queue, Summary: f.Summary}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if ra, rb := worstRank(a), worstRank(b); ra != rb {
			return ra < rb
		}
		if a.Critical != b.Critical {
			return a.Critical > b.Critical
		}
		if a.Warning != b.Warning {
			return a.Warning > b.Warning
		}
		if ua, ub := a.Targets-a.Read, b.Targets-b.Read; ua != ub {
			return ua > ub
		}
		return a.Cluster < b.Cluster
	})
	return out
}

func worstRank(s ClusterSummary) int {
	if s.Worst == nil {
		return findings.Severity("").Rank()
	}
	return s.Worst.Severity.Rank()
}

// clusterByPrefix finds the cluster of a finding whose target is not a target's ID (one about
// several targets): the longest cluster name it starts with.
func clusterByPrefix(id string, clusters []string) (string, bool) {
	best, ok := "", false
	for _, c := range clusters {
		if c != "" && strings.HasPrefix(id, c+"/") && len(c) >= len(best) {
			best, ok = c, true
		}
	}
	return best, ok
}
