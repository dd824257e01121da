package run

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// leaseCluster is a cluster whose Leases say op-a leads; it counts the times it is asked.
type leaseCluster struct {
	source.Cluster
	asked int
	// hang makes it answer only when its context ends, as an API server that stopped
	// answering does.
	hang bool
}

func (c *leaseCluster) LeaseHolders(ctx context.Context, _ []string) []model.Holder {
	c.asked++
	if c.hang {
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(time.Minute):
		}
	}
	return []model.Holder{{Namespace: "ops", Lease: "op-lock", Identity: "op-a_0f3c"}}
}

// twoReplicas is a Deployment's two pods: op-a, which leads and has a queue, and op-b, a
// controller-runtime standby whose page has no workqueue series. Neither exports
// leader_election_master_status, so the Leases tell the leader.
type twoReplicas struct {
	t       *testing.T
	now     *time.Time
	cluster *leaseCluster
	found   int
}

func (s *twoReplicas) targets() []target.Target {
	pod := func(name string) target.Target {
		return target.Target{Kind: target.KindPod, Namespace: "ops", Name: name, Port: 8080, Workload: "op"}
	}
	return []target.Target{pod("op-a"), pod("op-b")}
}

func (s *twoReplicas) Open(context.Context) (*source.Inventory, error) {
	return &source.Inventory{Targets: s.targets(), Cluster: s.cluster}, nil
}

func (s *twoReplicas) Rediscovers() bool { return true }

func (s *twoReplicas) Rediscover(context.Context) (*source.Inventory, error) {
	s.found++
	return s.Open(context.Background())
}

func (s *twoReplicas) Read(context.Context, source.Options) []source.Result {
	var out []source.Result
	for _, tg := range s.targets() {
		r := source.Result{Target: tg}
		fams := queuePage(s.t, 5, 100)
		if tg.Name == "op-b" {
			fams = nil
		}
		r.Samples = []source.Sample{{Families: fams, Time: *s.now}}
		out = append(out, r)
	}
	return out
}

// The standby's rows fold into the leader's, as in queues; the Leases are asked once per
// discovery of the targets, not at every refresh.
func TestTopFoldsStandbysAsQueuesDoes(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	src := &twoReplicas{t: t, now: &now, cluster: &leaseCluster{}}
	top := newFrames(QueuesConfig{Thresholds: findings.DefaultThresholds()}, Env{Source: src, Now: func() time.Time { return now }})
	top.SetRediscover(30 * time.Second)
	var f *view.Frame
	for i := 0; i < 3; i++ {
		var err error
		if f, err = top.Next(context.Background()); err != nil {
			t.Fatal(err)
		}
		now = now.Add(2 * time.Second)
	}
	if len(f.List.Items) != 1 || f.List.Items[0].Target != "ops/op-a:8080" {
		t.Fatalf("rows %+v: the leader's only", f.List.Items)
	}
	if len(f.List.Replicas) != 1 || f.List.Replicas[0].Leader != "ops/op-a:8080" || len(f.List.Replicas[0].Folded()) != 1 ||
		f.List.Replicas[0].Folded()[0] != "ops/op-b:8080" {
		t.Fatalf("replicas %+v", f.List.Replicas)
	}
	if src.cluster.asked != 1 {
		t.Errorf("Leases asked %d times in 3 refreshes, want once", src.cluster.asked)
	}
	// The standby's empty page is no fault: the Leases say who leads, as in report.
	standby := false
	for _, fd := range f.Findings {
		if fd.Target == "ops/op-b:8080" {
			standby = fd.Check == "no-workqueue-metrics" && fd.Severity == findings.Info && strings.Contains(fd.Summary, "standby")
			if !standby {
				t.Errorf("the standby raises %s (%s): %s", fd.Check, fd.Severity, fd.Summary)
			}
		}
	}
	if !standby {
		t.Errorf("no finding says op-b is a standby: %+v", f.Findings)
	}
	now = now.Add(30 * time.Second)
	if _, err := top.Next(context.Background()); err != nil {
		t.Fatal(err)
	}
	if src.found != 1 || src.cluster.asked != 2 {
		t.Errorf("after a rediscovery (%d): Leases asked %d times, want 2", src.found, src.cluster.asked)
	}
}
