package findings

import (
	"archive/tar"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/testpages"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/logs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// workqueue_retries_total counts every delayed add: a client-go queue that retries as much as
// it adds, with nothing naming a failure, requeues periodically (info, the queue stays OK); the
// same rates with the log naming failing objects are a retry storm that cites them.
func TestQueueRetriesWarnOnlyWhenSomethingNamesAFailure(t *testing.T) {
	now := time.Date(2026, 12, 5, 8, 0, 0, 0, time.UTC)
	page := func(at time.Time) *health.Snapshot {
		return &health.Snapshot{Time: at, Queues: map[string]*health.Queue{"ctrl": {Name: "ctrl"}}}
	}
	target := func(l *logs.Log) Target {
		return Target{ID: "kube-system/kcm:10257", Kind: ClientGo, Prev: page(now.Add(-10 * time.Second)), Cur: page(now),
			Window: 10 * time.Second, Log: l, Queues: []health.QueueStats{queue(func(q *health.QueueStats) {
				q.Controller = ""
				q.AddsPerSecond, q.RetriesPerSecond, q.RetryRatio = 20, 20, 1
			})}}
	}

	periodic := target(nil)
	fs := Evaluate([]Target{periodic}, nil, nil, DefaultThresholds())
	if checks(fs) != "info:retry-storm" || !strings.Contains(fs[0].Summary, "periodic requeues") {
		t.Fatalf("retries alone: %q %v", checks(fs), fs)
	}
	Judge(&periodic, DefaultThresholds())
	if periodic.Queues[0].Status != health.StatusOK {
		t.Errorf("retries alone make the queue %s", periodic.Queues[0].Status)
	}

	failing := target(&logs.Log{Failures: []logs.Failure{{Controller: "ctrl", Object: "shop/web", Count: 12,
		Error: "connection refused", Last: now.Add(-2 * time.Second)}}})
	fs = Evaluate([]Target{failing}, nil, nil, DefaultThresholds())
	if checks(fs) != "warning:retry-storm" {
		t.Fatalf("retries with failures in the log: %q", checks(fs))
	}
	cited := false
	for _, e := range fs[0].Evidence {
		cited = cited || strings.Contains(e.Value, "shop/web x12")
	}
	if !cited {
		t.Errorf("the failing object is not cited: %+v", fs[0].Evidence)
	}
	Judge(&failing, DefaultThresholds())
	if failing.Queues[0].Status != health.StatusRetrying {
		t.Errorf("retries with failures make the queue %s", failing.Queues[0].Status)
	}
}

// The reference operator's hotloop scenario, recorded on the local control plane, asks for a
// requeue 50 ms after every reconcile: its queue retries as much as it adds, with no error.
// Read as a client-go queue (its controller_runtime_* series left out), that is periodic
// requeueing: info, and the queue stays OK.
func TestPeriodicRequeuesOfARealPageAreNoStorm(t *testing.T) {
	pages := snapshotPages(t, "hotloop.tar.gz", "pages/000-0.prom", "pages/000-1.prom")
	var snaps [2]*health.Snapshot
	for i, p := range pages {
		var kept []string
		for _, l := range strings.Split(p, "\n") {
			if !strings.Contains(l, "controller_runtime_") {
				kept = append(kept, l)
			}
		}
		snaps[i] = health.FromFamilies(testpages.ParseText(t, strings.Join(kept, "\n")), time.Time{})
	}
	tg := judged("snap-hotloop/op:8080", snaps[0], snaps[1], 5*time.Second)
	if tg.Kind != ClientGo {
		t.Fatalf("read as %v, want a client-go target", tg.Kind)
	}
	fs := Evaluate([]Target{tg}, nil, nil, DefaultThresholds())
	storm := false
	for _, f := range fs {
		if f.Check == "retry-storm" {
			storm = true
			if f.Severity != Info {
				t.Errorf("periodic requeues: %s %s", f.Severity, f.Summary)
			}
		}
	}
	if !storm {
		t.Errorf("the page's retries (as many as its adds) raise no retry-storm at all: %s", checks(fs))
	}
	for _, q := range tg.Queues {
		if q.Status != health.StatusOK {
			t.Errorf("queue %s is %s (%s)", q.Queue, q.Status, q.Reason)
		}
	}
}

// snapshotPages reads members of a snapshot recorded by hack/record-snapshots.sh.
func snapshotPages(t *testing.T, snapshot string, members ...string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "..", "testdata", "snapshots", snapshot))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	r := tar.NewReader(z)
	for {
		h, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		got[h.Name] = string(b)
	}
	out := make([]string, len(members))
	for i, m := range members {
		var ok bool
		if out[i], ok = got[m]; !ok {
			t.Fatalf("%s has no %s", snapshot, m)
		}
	}
	return out
}
