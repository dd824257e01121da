package run

import (
	"context"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// hangingCluster answers the objects' list only when its context ends, as an API server that
// stopped answering does.
type hangingCluster struct{ watchCluster }

func (c *hangingCluster) Objects(ctx context.Context, _ string, _ []objects.Controller, _ map[string]schema.GroupKind) objects.View {
	select {
	case <-ctx.Done():
	case <-time.After(time.Minute):
	}
	return objects.View{}
}

// What report reads from the cluster after the targets stops at --deadline, and says so.
func TestReportDeadlineBoundsTheClusterAfterReading(t *testing.T) {
	c := &hangingCluster{}
	src := &firstSampleSource{t: t, cluster: &c.watchCluster}
	src.open = c
	const deadline = 300 * time.Millisecond
	start := time.Now()
	res, err := ReportWith(context.Background(), ReportConfig{Read: source.Options{Interval: 5 * time.Second},
		Thresholds: findings.DefaultThresholds()}, Env{Source: src, Clock: source.StartClock(nil, deadline)})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 30*time.Second {
		t.Fatalf("report took %s with --deadline %s", took, deadline)
	}
	if !strings.Contains(strings.Join(res.Warnings, "\n"), "--deadline 300ms passed while the cluster was read after the targets") {
		t.Errorf("warnings %q must say the deadline cut the cluster reads short", res.Warnings)
	}
}

// The Leases queues asks after the targets are read stop at --deadline too.
func TestQueuesDeadlineBoundsTheLeases(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	src := &twoReplicas{t: t, now: &now, cluster: &leaseCluster{hang: true}}
	start := time.Now()
	if _, err := QueuesWith(context.Background(), QueuesConfig{Thresholds: findings.DefaultThresholds()},
		Env{Source: src, Clock: source.StartClock(nil, 300*time.Millisecond)}); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 30*time.Second || src.cluster.asked != 1 {
		t.Errorf("queues took %s with --deadline 300ms (Leases asked %d times)", took, src.cluster.asked)
	}
}
