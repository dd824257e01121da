//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// replicaGroups is the "replicas" list of `queues -o json`.
type replicaGroups struct {
	Replicas []struct {
		Namespace, Workload, Leader, LeaderFrom string
		Replicas                                []struct {
			Target, Pod string
			Leader      *bool
			Queues      int
			Folded      bool
		}
	} `json:"replicas"`
}

// Two replicas of the reference operator (bare pods with the same app label, as the rule for
// pods without an owner groups them) with the same leader-election ID: exactly one leads, its
// queue rows show, and the standby, which exports no workqueue series, is folded into one
// STANDBY row; -o wide says LEADER yes; -o json lists both replicas.
func TestTwoReplicasOneLeaderFold(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	plugin := filepath.Join(env.binDir, "kubectl-ctrldiag")
	for _, name := range []string{"op-a", "op-b"} {
		startBehindPod(t, podSpec{Namespace: ns, Name: name, Labels: map[string]string{"app": "op"},
			Ports: []podPort{{Name: "http-metrics", Port: 8080}},
			Command: func(l map[int32]string) []string {
				return []string{plugin, "operator", "run", "-n", ns, "--scenario", "healthy", "--leader-election-id", "op-lock",
					"--metrics-bind-address", l[8080], "--health-probe-bind-address", "0"}
			}})
	}
	var leader, standby string
	eventually(t, 90e9, "one replica leading with its queue, the other folded", func() error {
		r := ctrldiag(t, "queues", "-n", ns, "--interval", "0", "-o", "json")
		var l struct {
			queueList
			replicaGroups
		}
		if r.Code != 0 {
			return fmt.Errorf("%s", r)
		}
		if err := json.Unmarshal([]byte(r.Stdout), &l); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, r)
		}
		if len(l.Replicas) != 1 || len(l.Replicas[0].Replicas) != 2 || l.Replicas[0].Leader == "" {
			return fmt.Errorf("want one group of two replicas with a leader:\n%s", r.Stdout)
		}
		g := l.Replicas[0]
		leader = g.Leader
		for _, m := range g.Replicas {
			if m.Target != leader {
				standby = m.Target
				if !m.Folded || m.Leader == nil || *m.Leader {
					return fmt.Errorf("the standby is not folded: %+v", m)
				}
			}
		}
		if g.Workload != "app=op" || g.LeaderFrom != "leader_election_master_status" {
			t.Errorf("group = %+v", g)
		}
		if q := l.targetsOf(); !contains(q[leader], "workload") || len(q) != 1 {
			return fmt.Errorf("want the leader's queue only: %v", q)
		}
		return nil
	})
	r := ctrldiag(t, "queues", "-n", ns, "--interval", "1s")
	if r.Code != 0 || !hasRow(r.Stdout, leader, "workload", "OK") || !hasRow(r.Stdout, standby, "-", "STANDBY") {
		t.Errorf("the table must show the leader's queue and one STANDBY row:\n%s", r)
	}
	r = ctrldiag(t, "queues", "-n", ns, "--interval", "0", "-o", "wide")
	if !hasRow(r.Stdout, leader, "workload", "yes") ||
		!strings.Contains(r.Stdout, "1 standby replica of app=op folded into the rows of the leader "+leader) {
		t.Errorf("-o wide must say LEADER yes and why the standby is folded:\n%s", r)
	}
	t.Logf("queues -n %s:\n%s", ns, r.Stdout)

	// report: a healthy pair raises no warning; the standby is one info finding that names the
	// leader, and the leader none at all.
	d, r := reportJSON(t, "-n", ns, "--interval", "1s", "--include-apiserver=false")
	if r.Code != 0 || d.Summary.Warning != 0 || d.Summary.Critical != 0 || d.Summary.Read != 2 {
		t.Fatalf("report over a healthy leader and standby: %s\n%s", d.checks(), r)
	}
	if d.checks() != "info:no-workqueue-metrics@"+standby || !strings.Contains(d.Findings[0].Summary, "whose leader is "+leader) {
		t.Errorf("report findings: want one info for the standby %s naming the leader %s, got %s\n%+v", standby, leader, d.checks(), d.Findings)
	}
}

// hasRow reports whether a line of a table starts with target and has every other cell.
func hasRow(table, target string, cells ...string) bool {
	for _, line := range strings.Split(table, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] != target {
			continue
		}
		all := true
		for _, c := range cells {
			all = all && contains(f, c)
		}
		if all {
			return true
		}
	}
	return false
}

// Two single-replica operators with the same workload name in two namespaces (kubebuilder's
// pods are all control-plane=controller-manager, its Deployments all controller-manager),
// each leading its own Lease, are two workloads with one leader each: `report -A` raises no
// leader-election finding and --fail-on critical exits 0.
func TestSameWorkloadInTwoNamespacesIsNoLeaderElectionProblem(t *testing.T) {
	crowd(t)
	plugin := filepath.Join(env.binDir, "kubectl-ctrldiag")
	nsA, nsB := newNamespace(t), newNamespace(t)
	// A label of this test only, so that -A reads these two pods and nothing else.
	sel := "ctrldiag.dev/e2e=" + nsA
	var ids []string
	for _, ns := range []string{nsA, nsB} {
		p := startBehindPod(t, podSpec{Namespace: ns, Name: "controller-manager",
			Labels: map[string]string{"control-plane": "controller-manager", "ctrldiag.dev/e2e": nsA},
			Ports:  []podPort{{Name: "http-metrics", Port: 8080}},
			Command: func(l map[int32]string) []string {
				return []string{plugin, "operator", "run", "-n", ns, "--scenario", "healthy", "--leader-election-id", "controller-manager-lock",
					"--metrics-bind-address", l[8080], "--health-probe-bind-address", "0"}
			}})
		ids = append(ids, fmt.Sprintf("%s/%s:8080", ns, p.Name))
		eventually(t, 60e9, "the operator in "+ns+" to hold its Lease", func() error {
			r := kubectl(t, "-n", ns, "get", "lease", "controller-manager-lock", "-o", "jsonpath={.spec.holderIdentity}")
			// The identity is the hostname of the process (not the pod's name here) and a UUID.
			if r.Code != 0 || r.Stdout == "" {
				return fmt.Errorf("no holder yet: %s", r)
			}
			return nil
		})
	}
	// Both must say leader_election_master_status 1 before the report is judged: the bug was
	// two claims counted as one workload's.
	eventually(t, 30e9, "both operators to export leader_election_master_status 1", func() error {
		r := ctrldiag(t, "queues", "-A", "-l", sel, "--interval", "0", "-o", "json")
		var l struct {
			Items []struct {
				Target string
				Leader *bool
			}
		}
		if r.Code != 0 {
			return fmt.Errorf("%s", r)
		}
		if err := json.Unmarshal([]byte(r.Stdout), &l); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, r)
		}
		leads := map[string]bool{}
		for _, it := range l.Items {
			leads[it.Target] = leads[it.Target] || (it.Leader != nil && *it.Leader)
		}
		if !leads[ids[0]] || !leads[ids[1]] {
			return fmt.Errorf("want both leading: %s", r.Stdout)
		}
		return nil
	})
	eventually(t, 30e9, "report -A to read both leaders and raise no leader-election finding", func() error {
		d, r := reportJSON(t, "-A", "-l", sel, "--interval", "1s", "--include-apiserver=false", "--fail-on", "critical")
		if d.Summary.Read != 2 {
			return fmt.Errorf("want both operators read:\n%s", r)
		}
		if r.Code != 0 || d.Summary.Critical != 0 || strings.Contains(d.checks(), "leader-election") {
			t.Fatalf("%s and %s each lead their own namespace: want no leader-election finding and exit 0, got %s\n%s",
				ids[0], ids[1], d.checks(), r)
		}
		return nil
	})
}
