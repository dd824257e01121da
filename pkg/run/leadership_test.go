package run

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// twoLeases is a Deployment's two pods, read without a cluster (no Leases): op-a runs two
// leader elections and leads one of them, op-lock, while it stands by for the other; op-b is a
// controller-runtime standby whose page has neither queues nor leader series.
type twoLeases struct {
	t   *testing.T
	now time.Time
}

func (s *twoLeases) pods() []*corev1.Pod {
	return []*corev1.Pod{{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "op-a"}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "op-b"}}}
}

func (s *twoLeases) Open(context.Context) (*source.Inventory, error) {
	inv := &source.Inventory{Pods: map[string]*corev1.Pod{}}
	for _, p := range s.pods() {
		inv.Targets = append(inv.Targets, target.Target{Kind: target.KindPod, Namespace: p.Namespace, Name: p.Name, Port: 8080, Workload: "op"})
		inv.Pods[p.Namespace+"/"+p.Name] = p
	}
	return inv, nil
}

func (s *twoLeases) Read(ctx context.Context, _ source.Options) []source.Result {
	inv, _ := s.Open(ctx)
	page := `# TYPE workqueue_depth gauge
workqueue_depth{name="widget"} 0
# TYPE workqueue_adds_total counter
workqueue_adds_total{name="widget"} 100
# TYPE leader_election_master_status gauge
leader_election_master_status{name="op-lock"} 1
leader_election_master_status{name="op-webhooks-lock"} 0
`
	var out []source.Result
	for i, tg := range inv.Targets {
		text := page
		if tg.Name == "op-b" {
			text = "# TYPE process_resident_memory_bytes gauge\nprocess_resident_memory_bytes 1e+07\n"
		}
		p, err := parse.Parse(tg.Name, strings.NewReader(text), nil)
		if err != nil {
			s.t.Fatal(err)
		}
		out = append(out, source.Result{Target: tg, Pod: s.pods()[i], Samples: []source.Sample{{Families: p.Families, Time: s.now}}})
	}
	return out
}

// standbyFinding is what the findings say of op-b, the replica without queues.
func standbyFinding(t *testing.T, fs []findings.Finding) string {
	t.Helper()
	for _, f := range fs {
		if f.Target == "ops/op-b:8080" {
			return string(f.Severity) + " " + f.Check + ": " + f.Summary
		}
	}
	t.Fatalf("no finding of op-b in %+v", fs)
	return ""
}

// A process that leads one of its leases and stands by for another is the leader, for
// `queues` and `top` (which fold the standby into it) as for `report` (whose findings call
// the other replica its standby): the three read its leader series the same way.
func TestTopAndReportAgreeOnAProcessWithTwoLeases(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	env := Env{Source: &twoLeases{t: t, now: now}, Now: func() time.Time { return now }}
	th := findings.DefaultThresholds()

	q, err := QueuesWith(context.Background(), QueuesConfig{Thresholds: th}, env)
	if err != nil {
		t.Fatal(err)
	}
	top, err := newFrames(QueuesConfig{Thresholds: th}, env).Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rep, err := ReportWith(context.Background(), ReportConfig{Thresholds: th}, env)
	if err != nil {
		t.Fatal(err)
	}

	for name, l := range map[string]view.QueueList{"queues": q.List, "top": top.List} {
		if len(l.Replicas) != 1 || l.Replicas[0].Leader != "ops/op-a:8080" || strings.Join(l.Replicas[0].Folded(), ",") != "ops/op-b:8080" {
			t.Errorf("%s: replicas %+v, want op-a leading and op-b folded", name, l.Replicas)
		}
		if len(l.Items) != 1 || l.Items[0].Leader == nil || !*l.Items[0].Leader {
			t.Errorf("%s: rows %+v, want op-a's one row, marked leader", name, l.Items)
		}
	}
	fromTop, fromReport := standbyFinding(t, top.Findings), standbyFinding(t, rep.Report.Findings)
	if fromTop != fromReport {
		t.Errorf("top and report disagree on op-b:\n top:    %s\n report: %s", fromTop, fromReport)
	}
	if want := "info no-workqueue-metrics: no workqueue metrics: this replica is a standby of op, whose leader is ops/op-a:8080"; !strings.HasPrefix(fromReport, want) {
		t.Errorf("report says of op-b %q, want %q...", fromReport, want)
	}
}
