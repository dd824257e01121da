package view

import (
	"sort"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
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

// SetFleet makes fleet the report's clusters, of maps the targets' IDs to their clusters,
// and names each error's cluster; Recount tallies the findings of each.
func (r *Report) SetFleet(fleet []ClusterSummary, of map[string]string) {
	r.Fleet, r.clusterOf = fleet, of
	r.Errors = append([]TargetError(nil), r.Errors...)
	for i := range r.Errors {
		r.Errors[i].Cluster = of[r.Errors[i].Target]
	}
}

// tally counts the findings of each cluster of the fleet and names its worst, then orders
// the clusters worst first: by the severity of the worst finding, then by how many critical
// findings, warnings and unread targets each has. fs are the findings, worst first; of maps
// targets to their clusters.
func tally(fleet []ClusterSummary, fs []findings.Finding, of map[string]string) {
	by := map[string]*ClusterSummary{}
	clusters := make([]string, len(fleet))
	for i := range fleet {
		s := &fleet[i]
		s.Critical, s.Warning, s.Info, s.Worst = 0, 0, 0, nil
		by[s.Cluster] = s
		clusters[i] = s.Cluster
	}
	for _, f := range fs {
		c, ok := of[f.Target]
		if !ok {
			c, ok = clusterByPrefix(f.Target, clusters)
		}
		s := by[c]
		if !ok || s == nil {
			continue
		}
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
	sort.SliceStable(fleet, func(i, j int) bool {
		a, b := fleet[i], fleet[j]
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
