package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// The folded standbys of a workload are one STANDBY row after the queue rows; -o wide says why.
func TestQueueTableStandbyRow(t *testing.T) {
	no, yes := false, true
	l := view.QueueList{Items: []view.Queue{{Target: "ns/op-a:8080", Queue: "demo", Status: "OK", Leader: &yes}},
		Replicas: []model.ReplicaGroup{{Namespace: "ns", Workload: "app=op", Leader: "ns/op-a:8080", LeaderFrom: "leader_election_master_status",
			Replicas: []model.ReplicaMember{{Target: "ns/op-a:8080", Leader: &yes, Queues: 1}, {Target: "ns/op-b:8080", Leader: &no, Folded: true}}}}}
	var b bytes.Buffer
	if err := QueueTable(&b, l, true, 0); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[2], "ns/op-b:8080 ") || !strings.Contains(lines[2], " STANDBY ") ||
		!strings.Contains(lines[2], "1 standby replica of app=op folded into the rows of the leader ns/op-a:8080 (told by leader_election_master_status)") ||
		!strings.Contains(lines[1], " yes ") {
		t.Errorf("table:\n%s", b.String())
	}
}
