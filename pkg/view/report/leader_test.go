package report

import (
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// replicaInput is one replica of workload in ns, read once: an idle controller-runtime queue
// when queues is true, and leader_election_master_status when leader is "0" or "1" (a
// controller-runtime standby exports none at all).
func replicaInput(t *testing.T, ns, pod, workload string, queues bool, leader string) model.Target {
	t.Helper()
	var b strings.Builder
	if queues {
		l := `{controller="ctrl",name="ctrl"}`
		fmt.Fprintf(&b, "workqueue_depth%s 0\nworkqueue_adds_total%s 5\nworkqueue_retries_total%s 0\n", l, l, l)
		fmt.Fprintf(&b, "workqueue_longest_running_processor_seconds%s 0\nworkqueue_unfinished_work_seconds%s 0\n", l, l)
	}
	if leader != "" {
		fmt.Fprintf(&b, "leader_election_master_status{name=\"controller-lock\"} %s\n", leader)
	}
	b.WriteString("process_resident_memory_bytes 1e+07\n")
	p, err := parse.Parse(pod, strings.NewReader(b.String()), health.Wanted)
	if err != nil {
		t.Fatal(err)
	}
	tg := target.Target{Kind: target.KindPod, Namespace: ns, Name: pod, Port: 8080, Container: "manager", Workload: workload}
	return model.Of(model.Facts{Target: tg, Pod: &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: pod}}},
		[]model.Page{{Families: p.Families, Time: time.Unix(0, 0)}})
}

func leaderChecks(r view.Report) string {
	var s []string
	for _, f := range r.Findings {
		s = append(s, string(f.Severity)+":"+f.Check+"@"+f.Target)
	}
	return strings.Join(s, " ")
}

// Two single-replica operators that share kubebuilder's default name,
// deployment/controller-manager, in two namespaces each lead their own Lease: that is no
// leader election gone wrong, and `report -A --fail-on critical` must not fail on it. Two
// replicas of one workload in one namespace that both lead, or neither, still raise it.
func TestLeaderCheckKeepsNamespacesApart(t *testing.T) {
	const w = "deployment/controller-manager"
	build := func(targets ...model.Target) view.Report {
		return Build(Input{Scope: "all namespaces", Targets: targets, Thresholds: findings.DefaultThresholds(),
			Now: time.Unix(0, 0)})
	}
	r := build(replicaInput(t, "team-a", "controller-manager-6f7b9-aaaaa", w, true, "1"),
		replicaInput(t, "team-b", "controller-manager-6f7b9-bbbbb", w, true, "1"))
	if got := leaderChecks(r); got != "" || r.Summary.Critical != 0 {
		t.Errorf("one leader in each of two namespaces: want no finding, got %q", got)
	}

	r = build(replicaInput(t, "team-a", "controller-manager-6f7b9-aaaaa", w, true, "1"),
		replicaInput(t, "team-a", "controller-manager-6f7b9-ccccc", w, true, "1"),
		replicaInput(t, "team-b", "controller-manager-6f7b9-bbbbb", w, true, "1"))
	if got := leaderChecks(r); !strings.HasPrefix(got, "critical:leader-election@") || strings.Count(got, "leader-election") != 1 ||
		!strings.Contains(r.Findings[0].Summary, "2 of 2 replicas") {
		t.Errorf("two leaders in team-a: want one critical leader-election, got %q (%+v)", got, r.Findings)
	}

	// The leader in team-b must not hide that no replica leads in team-a.
	r = build(replicaInput(t, "team-a", "controller-manager-6f7b9-aaaaa", w, true, "0"),
		replicaInput(t, "team-a", "controller-manager-6f7b9-ccccc", w, true, "0"),
		replicaInput(t, "team-b", "controller-manager-6f7b9-bbbbb", w, true, "1"))
	if got := leaderChecks(r); !strings.HasPrefix(got, "warning:leader-election@") || strings.Count(got, "leader-election") != 1 ||
		!strings.Contains(r.Findings[0].Summary, "0 of 2 replicas") {
		t.Errorf("no leader in team-a: want one warning leader-election, got %q (%+v)", got, r.Findings)
	}
}

// When no replica of a workload exports leader_election_master_status, Replicas tells
// model.UnsureLeader that its namespace's Leases are needed, and the holder given in
// Input.Leases is the leader: the replica without queues is then its standby (info), as
// `queues` folds it, and not a target with unnamed queues (warning). A Lease held in another
// namespace by a pod of the same name tells nothing.
func TestLeaseHolderTellsTheStandby(t *testing.T) {
	const w = "deployment/controller-manager"
	targets := []model.Target{replicaInput(t, "team-a", "controller-manager-6f7b9-aaaaa", w, true, ""),
		replicaInput(t, "team-a", "controller-manager-6f7b9-ccccc", w, false, ""),
		replicaInput(t, "team-b", "controller-manager-6f7b9-bbbbb", w, true, "1")}
	if ns := model.UnsureLeader(Replicas(targets)); len(ns) != 1 || ns[0] != "team-a" {
		t.Fatalf("namespaces whose Leases are needed: %v, want [team-a]", ns)
	}
	build := func(leases ...model.Holder) view.Report {
		return Build(Input{Scope: "all namespaces", Targets: targets, Leases: leases, Thresholds: findings.DefaultThresholds(),
			Now: time.Unix(0, 0)})
	}
	standby := "team-a/controller-manager-6f7b9-ccccc:8080"
	if got := leaderChecks(build(model.Holder{Namespace: "team-b", Lease: "lock", Identity: "controller-manager-6f7b9-aaaaa_1"})); got != "warning:no-workqueue-metrics@"+standby {
		t.Errorf("without the Lease of team-a: %q", got)
	}
	r := build(model.Holder{Namespace: "team-a", Lease: "lock", Identity: "controller-manager-6f7b9-aaaaa_1"})
	if got := leaderChecks(r); got != "info:no-workqueue-metrics@"+standby ||
		!strings.Contains(r.Findings[0].Summary, "whose leader is team-a/controller-manager-6f7b9-aaaaa:8080") {
		t.Errorf("with the Lease of team-a: %q %+v", got, r.Findings)
	}
}
