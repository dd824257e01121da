package model

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

var nan = math.NaN()

func row(target, queue string, depth float64) health.QueueStats {
	return health.QueueStats{Target: target, Queue: queue, Depth: depth, Leader: nan}
}

func targets(s []health.QueueStats) string {
	var out []string
	for _, x := range s {
		out = append(out, x.Target+" "+x.Queue)
	}
	return strings.Join(out, ", ")
}

func TestFold(t *testing.T) {
	stats := []health.QueueStats{row("ns/op-1:8080", "demo", 3), row("ns/db-1:8080", "db", 0), row("ns/db-2:8080", "db", 5),
		row("ns/solo:8080", "solo", 0), row("ns/two-b:8080", "x", 0)}
	reps := []Replica{
		// op: the leader has queues, the standby exports nothing at all.
		{Target: "ns/op-1:8080", Namespace: "ns", Pod: "op-1", Workload: "app=op", LeaderStatus: 1},
		{Target: "ns/op-2:8080", Namespace: "ns", Pod: "op-2", Workload: "app=op", LeaderStatus: nan},
		// db: a non-leader with a non-empty queue is kept.
		{Target: "ns/db-1:8080", Namespace: "ns", Pod: "db-1", Workload: "deployment/db", LeaderStatus: 0},
		{Target: "ns/db-2:8080", Namespace: "ns", Pod: "db-2", Workload: "deployment/db", LeaderStatus: nan},
		{Target: "ns/db-3:8080", Namespace: "ns", Pod: "db-3", Workload: "deployment/db", LeaderStatus: 1},
		// a single replica is no group; two that both claim to lead fold nothing.
		{Target: "ns/solo:8080", Namespace: "ns", Pod: "solo", Workload: "app=solo", LeaderStatus: 1},
		{Target: "ns/two-a:8080", Namespace: "ns", Pod: "two-a", Workload: "app=two", LeaderStatus: 1},
		{Target: "ns/two-b:8080", Namespace: "ns", Pod: "two-b", Workload: "app=two", LeaderStatus: 1},
		// no metrics say who leads: the Lease does.
		{Target: "ns/ls-1:8080", Namespace: "ns", Pod: "ls-1", Workload: "app=ls", LeaderStatus: nan},
		{Target: "ns/ls-2:8080", Namespace: "ns", Pod: "ls-2", Workload: "app=ls", LeaderStatus: nan},
	}
	holders := []Holder{{Namespace: "ns", Lease: "ls-lock", Identity: "ls-2_4f1c"}, {Namespace: "other", Lease: "x", Identity: "ls-1_1"}}
	kept, groups := FoldReplicas(stats, reps, holders)
	if got, want := targets(kept), "ns/op-1:8080 demo, ns/db-2:8080 db, ns/solo:8080 solo, ns/two-b:8080 x"; got != want {
		t.Errorf("kept:\n got %s\nwant %s", got, want)
	}
	var summary []string
	for _, g := range groups {
		summary = append(summary, g.Workload+" leader="+g.Leader+" from="+g.LeaderFrom+" folded="+strings.Join(g.Folded(), "+"))
	}
	want := []string{
		"app=ls leader=ns/ls-2:8080 from=Lease ns/ls-lock folded=ns/ls-1:8080",
		"app=op leader=ns/op-1:8080 from=leader_election_master_status folded=ns/op-2:8080",
		"app=two leader= from= folded=",
		"deployment/db leader=ns/db-3:8080 from=leader_election_master_status folded=ns/db-1:8080",
	}
	if got := strings.Join(summary, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("groups:\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
	if m := groups[1].Replicas[1]; m.Leader == nil || *m.Leader || !m.Folded || m.Queues != 0 {
		t.Errorf("the op standby = %+v", m)
	}
	if m := groups[2].Replicas[0]; m.Leader == nil || !*m.Leader || m.Folded {
		t.Errorf("a replica that claims to lead with another = %+v", m)
	}
	// Rows kept say what their group says of their replica when their page does not: the
	// standby db-2 (a warm replica, items in its queue, no leader series) does not lead, op-1
	// does; a replica of no group or of a group without a leader stays unknown.
	var leads []string
	for _, s := range kept {
		leads = append(leads, fmt.Sprintf("%s=%v", s.Target, s.Leader))
	}
	if got, want := strings.Join(leads, " "), "ns/op-1:8080=1 ns/db-2:8080=0 ns/solo:8080=NaN ns/two-b:8080=NaN"; got != want {
		t.Errorf("leader of the rows kept:\n got %s\nwant %s", got, want)
	}
}

// Elections keys replicas by namespace and workload: the same workload name in two
// namespaces is two workloads (kubebuilder names every operator deployment/controller-manager),
// each with its own leader, claims and Lease.
func TestElections(t *testing.T) {
	const w = "deployment/controller-manager"
	reps := []Replica{
		{Target: "b/cm-2:8080", Namespace: "b", Pod: "cm-2", Workload: w, LeaderStatus: nan},
		{Target: "a/cm-1:8080", Namespace: "a", Pod: "cm-1", Workload: w, LeaderStatus: 1},
		{Target: "b/cm-1:8080", Namespace: "b", Pod: "cm-1", Workload: w, LeaderStatus: 0},
		{Target: "c/cm-1:8080", Namespace: "c", Pod: "cm-1", Workload: w, LeaderStatus: 1},
		{Target: "c/cm-2:8080", Namespace: "c", Pod: "cm-2", Workload: w, LeaderStatus: 1},
		{Target: "d/cm-1:8080", Namespace: "d", Pod: "cm-1", Workload: w, LeaderStatus: 0},
		{Target: "d/cm-2:8080", Namespace: "d", Pod: "cm-2", Workload: w, LeaderStatus: 0},
		{Target: "d/x:8080", Namespace: "d", Pod: "x", LeaderStatus: 1},
	}
	// The holder of a Lease in a leads nothing in b; c's Lease is ignored since c's metrics
	// already answer (two claims: no leader); d's Lease names a replica whose metrics do not
	// claim, so it is the leader, but the claims stay 0.
	holders := []Holder{{Namespace: "a", Lease: "lock", Identity: "cm-2_1"}, {Namespace: "b", Lease: "lock", Identity: "cm-2_9"},
		{Namespace: "c", Lease: "lock", Identity: "cm-2_3"}, {Namespace: "d", Lease: "lock", Identity: "cm-2_4"}}
	var got []string
	for _, e := range Elections(reps, holders) {
		var ts []string
		for _, r := range e.Replicas {
			ts = append(ts, r.Target)
		}
		got = append(got, fmt.Sprintf("%s %s [%s] leader=%s from=%s claims=%d reporting=%d", e.Namespace, e.Workload,
			strings.Join(ts, " "), e.Leader, e.LeaderFrom, e.Claims, e.Reporting))
	}
	want := []string{
		"a deployment/controller-manager [a/cm-1:8080] leader=a/cm-1:8080 from=leader_election_master_status claims=1 reporting=1",
		"b deployment/controller-manager [b/cm-1:8080 b/cm-2:8080] leader=b/cm-2:8080 from=Lease b/lock claims=0 reporting=1",
		"c deployment/controller-manager [c/cm-1:8080 c/cm-2:8080] leader= from= claims=2 reporting=2",
		"d deployment/controller-manager [d/cm-1:8080 d/cm-2:8080] leader=d/cm-2:8080 from=Lease d/lock claims=0 reporting=2",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("elections:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestHoldsLease(t *testing.T) {
	for _, tc := range []struct {
		id, pod string
		want    bool
	}{{"op-1_abc", "op-1", true}, {"op-1", "op-1", true}, {"op-10_abc", "op-1", false}, {"op", "op-1", false}} {
		if got := HoldsLease(tc.id, tc.pod); got != tc.want {
			t.Errorf("HoldsLease(%q, %q) = %t", tc.id, tc.pod, got)
		}
	}
}

func TestLeaseHolders(t *testing.T) {
	id := "op-2_77"
	client := fake.NewClientset(
		&coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "op-lock"}, Spec: coordinationv1.LeaseSpec{HolderIdentity: &id}},
		&coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "free"}})
	client.PrependReactor("list", "leases", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if a.GetNamespace() == "locked" {
			return true, nil, errForbidden()
		}
		return false, nil, nil
	})
	got := LeaseHolders(context.Background(), client, []string{"ns", "locked"})
	if len(got) != 1 || got[0] != (Holder{Namespace: "ns", Lease: "op-lock", Identity: id}) {
		t.Errorf("holders = %+v", got)
	}
	reps := []Replica{{Namespace: "a", Workload: "w", LeaderStatus: nan}, {Namespace: "a", Workload: "w", LeaderStatus: 0},
		{Namespace: "b", Workload: "w", LeaderStatus: 1}, {Namespace: "b", Workload: "w", LeaderStatus: nan}}
	if got := UnsureLeader(reps); len(got) != 1 || got[0] != "a" {
		t.Errorf("Unsure = %v, want [a]", got)
	}
}

func errForbidden() error {
	return apierrors.NewForbidden(schema.GroupResource{Group: "coordination.k8s.io", Resource: "leases"}, "", errors.New("no"))
}

// In a fleet, the same workload in the same namespace of two clusters is two elections, each
// with its own leader: never one election of several leaders. A Lease (read from the cluster
// the user is logged in to) names no replica of another cluster.
func TestElectionsPerCluster(t *testing.T) {
	const w = "deployment/controller-manager"
	reps := []Replica{
		{Target: "west/ops/cm-1:8080", Cluster: "west", Namespace: "ops", Pod: "cm-1", Workload: w, LeaderStatus: 1},
		{Target: "east/ops/cm-1:8080", Cluster: "east", Namespace: "ops", Pod: "cm-1", Workload: w, LeaderStatus: 1},
		{Target: "east/ops/cm-2:8080", Cluster: "east", Namespace: "ops", Pod: "cm-2", Workload: w, LeaderStatus: 0},
		{Target: "north/ops/cm-1:8080", Cluster: "north", Namespace: "ops", Pod: "cm-1", Workload: w, LeaderStatus: nan},
		{Target: "north/ops/cm-2:8080", Cluster: "north", Namespace: "ops", Pod: "cm-2", Workload: w, LeaderStatus: nan},
	}
	var got []string
	for _, e := range Elections(reps, []Holder{{Namespace: "ops", Lease: "lock", Identity: "cm-2_1"}}) {
		got = append(got, fmt.Sprintf("%s %s %s replicas=%d leader=%s claims=%d", e.Cluster, e.Namespace, e.Workload, len(e.Replicas), e.Leader, e.Claims))
	}
	want := []string{
		"east ops deployment/controller-manager replicas=2 leader=east/ops/cm-1:8080 claims=1",
		"north ops deployment/controller-manager replicas=2 leader= claims=0",
		"west ops deployment/controller-manager replicas=1 leader=west/ops/cm-1:8080 claims=1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("elections:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
