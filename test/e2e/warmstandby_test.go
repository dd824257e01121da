//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// Two replicas of the warm-standby scenario with one Lease: controller-runtime warm replicas
// (--warmup) start the standby's watches, so its queue fills with the 8 objects while it runs
// no worker and exports no controller_runtime_* series. queues keeps its row (the queue holds
// items), OK, LEADER no, beside the leader's; report raises one info warm-standby about the
// standby and nothing about the leader.
func TestWarmStandbyReplica(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	plugin := filepath.Join(env.binDir, "kubectl-ctrldiag")
	for _, name := range []string{"op-a", "op-b"} {
		startBehindPod(t, podSpec{Namespace: ns, Name: name, Labels: map[string]string{"app": "op"},
			Ports: []podPort{{Name: "http-metrics", Port: 8080}},
			Command: func(l map[int32]string) []string {
				return []string{plugin, "operator", "run", "-n", ns, "--scenario", "warm-standby", "--leader-election-id", "op-lock",
					"--metrics-bind-address", l[8080], "--health-probe-bind-address", "0"}
			}})
	}
	type rows struct {
		Items []struct {
			Target, Queue, Status string
			Depth                 *float64
			Leader                *bool
		} `json:"items"`
		replicaGroups
	}
	var leader, standby string
	eventually(t, 90*time.Second, "a leader, and a standby whose queue holds the 8 objects", func() error {
		r := ctrldiag(t, "queues", "-n", ns, "--interval", "0", "-o", "json")
		if r.Code != 0 {
			return fmt.Errorf("%s", r)
		}
		var l rows
		if err := json.Unmarshal([]byte(r.Stdout), &l); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, r)
		}
		if len(l.Replicas) != 1 || len(l.Replicas[0].Replicas) != 2 || l.Replicas[0].Leader == "" {
			return fmt.Errorf("want one group of two replicas with a leader:\n%s", r.Stdout)
		}
		leader = l.Replicas[0].Leader
		for _, m := range l.Replicas[0].Replicas {
			if m.Target == leader {
				continue
			}
			standby = m.Target
			if m.Folded || m.Leader == nil || *m.Leader || m.Queues != 1 {
				return fmt.Errorf("the standby must keep its one queue row, not leading: %+v", m)
			}
		}
		for _, it := range l.Items {
			if it.Target == standby && it.Queue == "workload" && it.Depth != nil && *it.Depth == 8 {
				return nil
			}
		}
		return fmt.Errorf("the standby's queue does not hold the 8 objects yet:\n%s", r.Stdout)
	})

	// Over a window: both rows OK, the standby's still holding its 8 items.
	r := ctrldiag(t, "queues", "-n", ns, "--interval", "2s", "-o", "json")
	var l rows
	if r.Code != 0 || json.Unmarshal([]byte(r.Stdout), &l) != nil {
		t.Fatalf("queues -o json:\n%s", r)
	}
	seen := map[string]bool{}
	for _, it := range l.Items {
		seen[it.Target] = true
		if it.Status != "OK" {
			t.Errorf("%s %s is %s, want OK: a warm standby is no backlog", it.Target, it.Queue, it.Status)
		}
		if it.Target == standby && (it.Depth == nil || *it.Depth != 8 || it.Leader == nil || *it.Leader) {
			t.Errorf("standby row: depth %v leader %v, want 8 and false", it.Depth, it.Leader)
		}
	}
	if !seen[leader] || !seen[standby] {
		t.Errorf("want a row for the leader %s and one for the standby %s:\n%s", leader, standby, r.Stdout)
	}
	r = ctrldiag(t, "queues", "-n", ns, "--interval", "0", "-o", "wide")
	if !hasRow(r.Stdout, standby, "workload", "8", "OK", "no") || !hasRow(r.Stdout, leader, "workload", "OK", "yes") {
		t.Errorf("-o wide must show the standby's queue (8, OK, LEADER no) and the leader's:\n%s", r)
	}
	t.Logf("queues -n %s:\n%s", ns, r.Stdout)

	d, r := reportJSON(t, "-n", ns, "--include-apiserver=false")
	if r.Code != 0 || d.Summary.Warning != 0 || d.Summary.Critical != 0 || d.Summary.Read != 2 {
		t.Fatalf("report over a leader and a warm standby: %s\n%s", d.checks(), r)
	}
	if d.checks() != "info:warm-standby@"+standby {
		t.Errorf("report findings: want one info warm-standby about %s, got %s", standby, d.checks())
	}
	for _, dis := range d.disagreements() {
		t.Errorf("section 2 and the findings disagree: %s", dis)
	}
}
