// This file groups the scraped replicas of one workload in one namespace (of one
// cluster, in a fleet), finds the
// one that leads (its health.Leadership, else the holder of a Lease) and counts those
// that claim the lead (Elections), for the leader-election check of the findings and for
// the folding of the standby replicas, whose queues are empty or absent, into the leader's
// rows, which records each one so that none disappears from the output (Fold).

package model

import (
	"math"
	"sort"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// Replica is one scraped pod target.
type Replica struct {
	// Target is the target's ID (the Target of its QueueStats rows).
	Target string
	// Cluster is the target's cluster in a fleet read from Prometheus ("" otherwise): the same
	// workload in two clusters is two elections.
	Cluster        string
	Namespace, Pod string
	Workload       string
	// LeaderStatus is the replica's health.Leadership as a gauge: 1 leads (any of its
	// leases), 0 does not, NaN when the page has no leader_election_master_status (a
	// controller-runtime standby usually exports no series at all).
	LeaderStatus float64
}

// Holder is the holder of a Lease, for the replicas whose metrics do not say who leads.
type Holder struct {
	Namespace, Lease, Identity string
}

// ReplicaGroup is the replicas of one workload in one namespace, when two or more were read.
type ReplicaGroup struct {
	Cluster   string `json:"cluster,omitempty"`
	Namespace string `json:"namespace"`
	Workload  string `json:"workload"`
	// Leader is the target of the leading replica; "" when it is unknown or several claim it.
	Leader string `json:"leader,omitempty"`
	// LeaderFrom says how the leader was told: "leader_election_master_status" or "Lease NS/NAME".
	LeaderFrom string          `json:"leaderFrom,omitempty"`
	Replicas   []ReplicaMember `json:"replicas"`
}

// ReplicaMember is one replica of a group.
type ReplicaMember struct {
	Target string `json:"target"`
	Pod    string `json:"pod"`
	// Leader is whether the replica leads; nil when unknown.
	Leader *bool `json:"leader,omitempty"`
	// Queues is the number of workqueue rows the replica had.
	Queues int `json:"queues"`
	// Folded is true for a standby replica whose rows (none, or empty queues) were folded
	// into the leader's.
	Folded bool `json:"folded,omitempty"`
}

// Folded returns the targets of the folded members.
func (g ReplicaGroup) Folded() []string {
	var out []string
	for _, m := range g.Replicas {
		if m.Folded {
			out = append(out, m.Target)
		}
	}
	return out
}

// Election is the replicas read of one workload in one namespace and who leads them: the
// one model of a workload's replicas, which the folding of standbys (Fold) and the
// leader-election check of the findings both read.
type Election struct {
	Cluster, Namespace, Workload string
	// Replicas are sorted by target.
	Replicas []Replica
	// Leader is the target of the replica that leads: the one whose
	// leader_election_master_status is 1, else, when none says so, the one that holds a Lease
	// of the namespace; "" when it is unknown or several claim it.
	Leader string
	// LeaderFrom says how the leader was told: "leader_election_master_status" or "Lease NS/NAME".
	LeaderFrom string
	// Claims is how many replicas' leader_election_master_status is 1; Reporting how many
	// export it at all (a controller-runtime standby usually exports nothing).
	Claims, Reporting int
}

// Elections groups reps by cluster, namespace and workload, replicas without a workload left
// out, and tells each group's leader. holders are consulted only for groups where no
// replica's metrics claim the lead. Groups of one replica are included; the result is sorted
// by cluster, namespace and workload.
func Elections(reps []Replica, holders []Holder) []Election {
	byKey := map[[3]string][]Replica{}
	for _, r := range reps {
		if r.Workload == "" {
			continue
		}
		k := [3]string{r.Cluster, r.Namespace, r.Workload}
		byKey[k] = append(byKey[k], r)
	}
	out := make([]Election, 0, len(byKey))
	for k, rs := range byKey {
		sort.Slice(rs, func(i, j int) bool { return rs[i].Target < rs[j].Target })
		e := Election{Cluster: k[0], Namespace: k[1], Workload: k[2], Replicas: rs}
		for _, r := range rs {
			if !math.IsNaN(r.LeaderStatus) {
				e.Reporting++
			}
			if r.LeaderStatus == 1 {
				e.Claims++
			}
		}
		e.Leader, e.LeaderFrom = leaderOf(rs, holders)
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Cluster != out[j].Cluster {
			return out[i].Cluster < out[j].Cluster
		}
		if out[i].Namespace != out[j].Namespace {
			return out[i].Namespace < out[j].Namespace
		}
		return out[i].Workload < out[j].Workload
	})
	return out
}

// FoldReplicas groups reps by namespace and workload (Elections) and, in each group of two or more
// with one known leader, removes the rows of the standby replicas whose queues are all
// empty; the rows kept of such a group's replicas whose page says nothing of the lead (a
// warm standby) get the group's word for it. It returns the rows kept (in their order) and
// the groups of two or more, sorted by namespace and workload. holders are consulted only for groups where no replica's metrics
// say it leads.
func FoldReplicas(stats []health.QueueStats, reps []Replica, holders []Holder) ([]health.QueueStats, []ReplicaGroup) {
	rows := map[string][]health.QueueStats{}
	for _, s := range stats {
		rows[s.Target] = append(rows[s.Target], s)
	}
	folded := map[string]bool{}
	leads := map[string]float64{} // replicas of groups with a known leader: 1 leads, 0 does not
	var groups []ReplicaGroup
	for _, e := range Elections(reps, holders) {
		if len(e.Replicas) < 2 {
			continue
		}
		g := ReplicaGroup{Cluster: e.Cluster, Namespace: e.Namespace, Workload: e.Workload, Leader: e.Leader, LeaderFrom: e.LeaderFrom}
		for _, r := range e.Replicas {
			m := ReplicaMember{Target: r.Target, Pod: r.Pod, Queues: len(rows[r.Target])}
			switch {
			case e.Leader != "":
				m.Leader = ptr(r.Target == e.Leader)
				leads[r.Target] = 0
				if r.Target == e.Leader {
					leads[r.Target] = 1
				}
			case !math.IsNaN(r.LeaderStatus):
				m.Leader = ptr(r.LeaderStatus == 1)
			}
			if e.Leader != "" && r.Target != e.Leader && allEmpty(rows[r.Target]) {
				m.Folded = true
				folded[r.Target] = true
			}
			g.Replicas = append(g.Replicas, m)
		}
		groups = append(groups, g)
	}
	kept := make([]health.QueueStats, 0, len(stats))
	for _, s := range stats {
		if folded[s.Target] {
			continue
		}
		if v, ok := leads[s.Target]; ok && math.IsNaN(s.Leader) {
			// A standby whose queues hold items (a warm replica) exports no leader series: its
			// rows say what its group says, that it does not lead.
			s.Leader = v
		}
		kept = append(kept, s)
	}
	return kept, groups
}

// leaderOf returns the one replica whose metrics say it leads, else the one that holds a
// Lease of the namespace; "" when there is none or more than one.
func leaderOf(rs []Replica, holders []Holder) (string, string) {
	var claim []string
	for _, r := range rs {
		if r.LeaderStatus == 1 {
			claim = append(claim, r.Target)
		}
	}
	switch len(claim) {
	case 1:
		return claim[0], "leader_election_master_status"
	case 0:
	default:
		return "", ""
	}
	var lease string
	for _, h := range holders {
		for _, r := range rs {
			// Leases are read from the cluster the user is logged in to, whose targets carry no
			// cluster label.
			if r.Cluster == "" && h.Namespace == r.Namespace && HoldsLease(h.Identity, r.Pod) {
				if claim = append(claim, r.Target); len(claim) == 1 {
					lease = "Lease " + h.Namespace + "/" + h.Lease
				}
			}
		}
	}
	if len(claim) == 1 {
		return claim[0], lease
	}
	return "", ""
}

// HoldsLease reports whether a Lease's holderIdentity names pod: client-go and
// controller-runtime write HOSTNAME_UUID, and a pod's hostname is its name.
func HoldsLease(identity, pod string) bool {
	return identity == pod || (len(identity) > len(pod) && identity[:len(pod)] == pod && identity[len(pod)] == '_')
}

// allEmpty reports whether no queue has items waiting or in work.
func allEmpty(rows []health.QueueStats) bool {
	for _, s := range rows {
		if s.Depth > 0 || s.Unfinished > 0 || s.Longest > 0 {
			return false
		}
	}
	return true
}

// ReplicaOf is the replica a pod target is (cluster "" unless read from a fleet), its lead read from
// its snapshot (health.Leadership: the same rule for `queues`, `top` and `report`); cur may be
// nil (unknown).
func ReplicaOf(target, cluster, namespace, pod, workload string, cur *health.Snapshot) Replica {
	return Replica{Target: target, Cluster: cluster, Namespace: namespace, Pod: pod, Workload: workload,
		LeaderStatus: cur.Leadership().Status()}
}

func ptr(b bool) *bool { return &b }
