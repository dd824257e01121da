package collect

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/scrape"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// live is a live source that serves a counter growing by 10 a fetch, or fails on call fail.
type live struct {
	calls atomic.Int32
	fail  int32
}

func (l *live) Name() string { return "live" }

func (l *live) Target() target.Target { return target.Target{Kind: target.KindURL, Name: "live"} }

func (l *live) Fetch(context.Context) (*scrape.Page, error) {
	n := l.calls.Add(1)
	if n == l.fail {
		return nil, errors.New("connection refused")
	}
	body := "workqueue_adds_total{name=\"a\"} " + strings.Repeat("1", int(n)) + "0\n"
	return &scrape.Page{Body: io.NopCloser(strings.NewReader(body)), Time: time.Now()}, nil
}

func TestCollect(t *testing.T) {
	tests := []struct {
		name     string
		src      scrape.Source
		interval time.Duration
		samples  int
		window   time.Duration
		err      string
	}{
		{name: "live, two samples", src: &live{}, interval: 50 * time.Millisecond, samples: 2},
		{name: "live, one sample", src: &live{}, samples: 1},
		{name: "live, second fails", src: &live{fail: 2}, interval: 10 * time.Millisecond, samples: 1, err: "second sample"},
		{name: "live, first fails", src: &live{fail: 1}, interval: 10 * time.Millisecond, samples: 0, err: "connection refused"},
		{name: "saved pair with times", src: &scrape.FileSource{Paths: []string{
			"../../../testdata/pages/controller-runtime-1.prom", "../../../testdata/pages/controller-runtime-2.prom"}},
			interval: time.Hour, samples: 2, window: 3031858559},
		{name: "saved pair without times uses --interval", src: &scrape.FileSource{Paths: []string{
			"../../../testdata/pages/kube-controller-manager-1.prom.gz", "../../../testdata/pages/kube-controller-manager-2.prom.gz"}},
			interval: 10 * time.Second, samples: 2, window: 10 * time.Second},
		{name: "saved pair, interval 0 keeps the latest", src: &scrape.FileSource{Paths: []string{
			"../../../testdata/pages/controller-runtime-1.prom", "../../../testdata/pages/controller-runtime-2.prom"}},
			samples: 1},
		{name: "saved pair in the wrong order", src: &scrape.FileSource{Paths: []string{
			"../../../testdata/pages/controller-runtime-2.prom", "../../../testdata/pages/controller-runtime-1.prom"}},
			interval: time.Second, samples: 1, err: "not in time order"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Collect(context.Background(), []scrape.Source{tt.src}, source.Options{Interval: tt.interval, Timeout: 5 * time.Second})[0]
			if len(r.Samples) != tt.samples {
				t.Fatalf("%d samples, want %d (err %v)", len(r.Samples), tt.samples, r.Err)
			}
			if (tt.err == "") != (r.Err == nil) || (r.Err != nil && !strings.Contains(r.Err.Error(), tt.err)) {
				t.Fatalf("err = %v, want %q", r.Err, tt.err)
			}
			if tt.window != 0 && r.Window != tt.window {
				t.Errorf("window = %v, want %v", r.Window, tt.window)
			}
			if assumed := strings.Contains(tt.name, "uses --interval"); assumed != (len(r.Notes) == 1 && strings.Contains(r.Notes[0], "assumed to be --interval "+tt.interval.String())) {
				t.Errorf("notes = %q: the assumed window must be said exactly when it is assumed", r.Notes)
			}
			if _, ok := tt.src.(*live); ok && tt.samples == 2 && r.Window < tt.interval {
				t.Errorf("live window %v shorter than the interval", r.Window)
			}
		})
	}
}

// claiming is a live source whose pages claim their own sample time: one from 2001, then one
// from the future.
type claiming struct{ live }

func (c *claiming) Fetch(ctx context.Context) (*scrape.Page, error) {
	claim := "2001-01-01T00:00:00Z"
	if c.calls.Load() > 0 {
		claim = time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	}
	p, err := c.live.Fetch(ctx)
	if err != nil {
		return nil, err
	}
	b, _ := io.ReadAll(p.Body)
	p.Body = io.NopCloser(strings.NewReader("# ctrldiag-sample-time: " + claim + "\n" + string(b)))
	return p, nil
}

// A live page cannot set its own time: its window is the tool's clock, not a comment in it.
func TestCollectIgnoresTheTimeALivePageClaims(t *testing.T) {
	const interval = 50 * time.Millisecond
	start := time.Now()
	r := Collect(context.Background(), []scrape.Source{&claiming{}}, source.Options{Interval: interval, Timeout: 5 * time.Second})[0]
	if r.Err != nil || len(r.Samples) != 2 {
		t.Fatalf("two samples expected: %v", r.Err)
	}
	if r.Window < interval || r.Window > interval+5*time.Second {
		t.Errorf("window = %v, want the interval as measured by the clock", r.Window)
	}
	if r.Samples[0].Time.Before(start) {
		t.Errorf("first sample time %v is the page's claim, not when it was taken", r.Samples[0].Time)
	}
}

// First is called once per live target with its first sample, before the second is taken;
// never for saved pages, whose window is not now.
func TestCollectCallsFirstBeforeTheWait(t *testing.T) {
	src := &live{}
	saved := &scrape.FileSource{Paths: []string{"../../../testdata/pages/controller-runtime-1.prom", "../../../testdata/pages/controller-runtime-2.prom"}}
	var calls []source.Result
	var fetchesThen int32
	first := func(r source.Result) {
		calls = append(calls, r)
		fetchesThen = src.calls.Load()
	}
	rs := Collect(context.Background(), []scrape.Source{src, saved}, source.Options{Interval: 20 * time.Millisecond, Timeout: time.Second, Concurrency: 1, First: first})
	if len(rs[0].Samples) != 2 || len(rs[1].Samples) != 2 {
		t.Fatalf("samples %d and %d, want 2 each", len(rs[0].Samples), len(rs[1].Samples))
	}
	if len(calls) != 1 || calls[0].Target.Name != "live" || len(calls[0].Samples) != 1 || fetchesThen != 1 {
		t.Errorf("First called %d times (%+v), after %d fetches; want once, for live, with its one sample, after 1", len(calls), calls, fetchesThen)
	}
}

// hang is a source that answers only when its context ends.
type hang struct{ name string }

func (h hang) Name() string { return h.name }

func (h hang) Target() target.Target { return target.Target{Kind: target.KindURL, Name: h.name} }

func (h hang) Fetch(ctx context.Context) (*scrape.Page, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// The overall deadline ends the work: the targets not read by then say so, the others keep
// their samples, and Done is called once per target. (Every target has a slot here: with
// fewer, the hanging ones could take them all before the quick one, which would then rightly
// miss the deadline; TestCollectDeadlineWhileWaiting covers a target waiting for a slot.)
func TestCollectDeadline(t *testing.T) {
	var done atomic.Int32
	start := time.Now()
	ctx, cancel := source.StartClock(nil, 200*time.Millisecond).Bound(context.Background())
	defer cancel()
	rs := Collect(ctx, []scrape.Source{&live{}, hang{"slow-1"}, hang{"slow-2"}}, source.Options{
		Timeout: time.Minute, Concurrency: 3, Done: func() { done.Add(1) }})
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("took %s with a 200ms deadline", took)
	}
	if rs[0].Err != nil || len(rs[0].Samples) != 1 {
		t.Errorf("the quick target: %+v", rs[0])
	}
	for _, r := range rs[1:] {
		if r.Err == nil || !strings.Contains(r.Err.Error(), "overall deadline reached: --deadline 200ms passed before this target answered; raise --deadline") {
			t.Errorf("%s: err = %v", r.ID(), r.Err)
		}
	}
	if done.Load() != 3 {
		t.Errorf("Done called %d times", done.Load())
	}
}

// A target still waiting for a slot when the deadline passes gets the same error as the one in
// flight: with one slot and two hanging targets, one of them never starts.
func TestCollectDeadlineWhileWaiting(t *testing.T) {
	ctx, cancel := source.StartClock(nil, 100*time.Millisecond).Bound(context.Background())
	defer cancel()
	rs := Collect(ctx, []scrape.Source{hang{"slow-1"}, hang{"slow-2"}}, source.Options{
		Timeout: time.Minute, Concurrency: 1})
	for _, r := range rs {
		if r.Err == nil || !strings.Contains(r.Err.Error(), "overall deadline reached: --deadline 100ms passed before this target answered") {
			t.Errorf("%s: err = %v", r.ID(), r.Err)
		}
	}
}
