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
		if q := l.targetsOf(); !contains(q[leader], "ctrldiag-demo") || len(q) != 1 {
			return fmt.Errorf("want the leader's queue only: %v", q)
		}
		return nil
	})
	r := ctrldiag(t, "queues", "-n", ns, "--interval", "1s")
	if r.Code != 0 || !hasRow(r.Stdout, leader, "ctrldiag-demo", "OK") || !hasRow(r.Stdout, standby, "-", "STANDBY") {
		t.Errorf("the table must show the leader's queue and one STANDBY row:\n%s", r)
	}
	r = ctrldiag(t, "queues", "-n", ns, "--interval", "0", "-o", "wide")
	if !hasRow(r.Stdout, leader, "ctrldiag-demo", "yes") ||
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
