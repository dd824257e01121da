package live

import (
	"bytes"
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// frames yields frames whose one queue's depth is 10, 20, 30...; the second frame has target
// b failing.
func frames() Next {
	n := 0
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return func(context.Context) (*view.Frame, error) {
		n++
		q := health.QueueStats{Target: "a", Queue: "widget", Depth: float64(10 * n), Window: 2 * time.Second,
			AddsPerSecond: float64(n), Status: health.StatusOK}
		f := &view.Frame{Time: start.Add(time.Duration(n) * 2 * time.Second), Warnings: []string{"a: using port-forward"}}
		var errs []view.TargetError
		if n == 2 {
			errs = append(errs, view.TargetError{Target: "b", Error: "connection refused"})
		}
		f.List = view.NewQueueList([]health.QueueStats{nan(q)}, errs)
		return f, nil
	}
}

// nan sets the figures a test does not give to NaN, as the model has them when unknown.
func nan(q health.QueueStats) health.QueueStats {
	for _, p := range []*float64{&q.DepthBefore, &q.RetriesPerSecond, &q.CompletionsPerSecond, &q.ReconcileErrorsPerSecond,
		&q.QueueP50, &q.QueueP99, &q.WorkP50, &q.WorkP99, &q.Unfinished, &q.Longest, &q.LongestBefore,
		&q.ActiveWorkers, &q.MaxWorkers, &q.ErrorRatio, &q.RetryRatio, &q.Leader} {
		*p = nanValue
	}
	return q
}

func TestStreamWritesOneTimestampedTablePerFrame(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := Stream(context.Background(), &out, &errOut, frames(), Loop{Every: time.Millisecond, Count: 3}, Print{}); err != nil {
		t.Fatal(err)
	}
	// 80 columns: the detail columns are left out (-o wide has them).
	want := `# 2026-01-01T00:00:02Z  window: 2s
TARGET   QUEUE    DEPTH   ADDS/s   QUEUE p99   WORK p99   STATUS   WINDOW
a        widget   10      1        -           -          OK       2s

# 2026-01-01T00:00:04Z  window: 2s
TARGET   QUEUE    DEPTH   ADDS/s   QUEUE p99   WORK p99   STATUS   WINDOW
b        -        -       -        -           -          ERROR    -
a        widget   20      2        -           -          OK       2s

# 2026-01-01T00:00:06Z  window: 2s
TARGET   QUEUE    DEPTH   ADDS/s   QUEUE p99   WORK p99   STATUS   WINDOW
a        widget   30      3        -           -          OK       2s
`
	if out.String() != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", out.String(), want)
	}
	if errOut.String() != "warning: a: using port-forward\nerror: b: connection refused\n" {
		t.Errorf("stderr: %q", errOut.String())
	}
}

// Without --count the stream runs until its context ends, and that is no error; a frame that
// cannot be made ends it with that error.
func TestStreamEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	next := frames()
	n := 0
	counting := func(ctx context.Context) (*view.Frame, error) {
		n++
		if n == 4 {
			cancel()
		}
		return next(ctx)
	}
	var out bytes.Buffer
	if err := Stream(ctx, &out, &out, counting, Loop{Every: time.Millisecond}, Print{}); err != nil || strings.Count(out.String(), "# 2026") != 3 {
		t.Errorf("cancelled: %v, %d frames:\n%s", err, strings.Count(out.String(), "# 2026"), out.String())
	}
	failing := func(context.Context) (*view.Frame, error) {
		return nil, errors.New("no controller metrics endpoint found")
	}
	if err := Stream(context.Background(), &out, &out, failing, Loop{Every: time.Millisecond}, Print{}); err == nil {
		t.Error("a frame that could not be made: no error")
	}
}

var nanValue = math.NaN()
