package run

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// rolloutSource is a discovered source whose Rediscover finds the targets in next (or fails
// with err); Read reads the targets found last: those in failing fail, the others serve a
// page of queue widget with the depth and adds of pages, sampled at *now.
type rolloutSource struct {
	t           *testing.T
	now         *time.Time
	found       []string
	next        []string
	err         error
	failing     map[string]bool
	pages       map[string][2]float64
	rediscovers int
}

func urlTargets(names []string) []target.Target {
	var out []target.Target
	for _, n := range names {
		out = append(out, target.Target{Kind: target.KindURL, Name: n})
	}
	return out
}

func (s *rolloutSource) Open(context.Context) (*source.Inventory, error) {
	return &source.Inventory{Targets: urlTargets(s.found), Warnings: []string{"a ServiceMonitor selects nothing"}}, nil
}

func (s *rolloutSource) Rediscovers() bool { return true }

func (s *rolloutSource) Rediscover(context.Context) (*source.Inventory, error) {
	s.rediscovers++
	if s.err != nil {
		return nil, s.err
	}
	s.found = s.next
	return &source.Inventory{Targets: urlTargets(s.found), Warnings: []string{"a ServiceMonitor selects nothing", "a new warning"}}, nil
}

func (s *rolloutSource) Read(context.Context, source.Options) []source.Result {
	var out []source.Result
	for _, name := range s.found {
		r := source.Result{Target: target.Target{Kind: target.KindURL, Name: name}}
		if s.failing[name] {
			r.Err = errors.New("connection refused")
		} else {
			v := s.pages[name]
			r.Samples = []source.Sample{{Families: queuePage(s.t, v[0], v[1]), Time: *s.now}}
		}
		out = append(out, r)
	}
	return out
}

// rows are the frame's targets with a queue row, and those with an error row.
func rows(f *view.Frame) (read, failed []string) {
	for _, it := range f.List.Items {
		read = append(read, it.Target)
	}
	for _, e := range f.List.Errors {
		failed = append(failed, e.Target)
	}
	slices.Sort(read)
	return read, failed
}

// A rollout during a session: the old pod fails, the next refresh finds the targets again,
// the new one gets a row (lifetime first, rates from its second frame) and the old one leaves
// the table. Then the targets are found again only every period.
func TestTopRediscoversAfterAFailureAndEveryPeriod(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	src := &rolloutSource{t: t, now: &now, found: []string{"keep", "old"}, failing: map[string]bool{},
		pages: map[string][2]float64{"keep": {1, 10}, "old": {100, 100}, "new": {50, 500}}}
	top := newFrames(QueuesConfig{Thresholds: findings.DefaultThresholds()}, Env{Source: src, Now: func() time.Time { return now }})
	top.SetRediscover(30 * time.Second)
	ctx := context.Background()
	next := func(step time.Duration) *view.Frame {
		t.Helper()
		now = now.Add(step)
		f, err := top.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}

	f := next(0)
	if read, _ := rows(f); !slices.Equal(read, []string{"keep", "old"}) || src.rediscovers != 0 || len(f.Warnings) != 1 {
		t.Fatalf("first frame: rows %v, rediscovered %d times, warnings %v", read, src.rediscovers, f.Warnings)
	}
	// The rollout deletes the old pod: it fails, an ERROR row as before.
	src.failing["old"], src.next = true, []string{"keep", "new"}
	f = next(2 * time.Second)
	if read, failed := rows(f); !slices.Equal(read, []string{"keep"}) || !slices.Equal(failed, []string{"old"}) || src.rediscovers != 0 {
		t.Fatalf("old pod failing: rows %v errors %v, rediscovered %d times", read, failed, src.rediscovers)
	}
	// The refresh after it started failing finds the targets again.
	f = next(2 * time.Second)
	read, failed := rows(f)
	if src.rediscovers != 1 || !slices.Equal(read, []string{"keep", "new"}) || len(failed) != 0 {
		t.Fatalf("after the rollout: rows %v errors %v, rediscovered %d times", read, failed, src.rediscovers)
	}
	for _, it := range f.List.Items {
		switch {
		case it.Target == "new" && (it.Window != "lifetime" || it.AddsPerSecond != nil):
			t.Errorf("the new pod's first frame has rates: %+v", it)
		case it.Target == "keep" && it.Window != "2s":
			t.Errorf("the pod still there lost its sample before: %+v", it)
		}
	}
	if strings.Join(f.Warnings, "|") != "a new warning" {
		t.Errorf("warnings %q: only the one not given before", f.Warnings)
	}
	src.pages["new"] = [2]float64{40, 520}
	f = next(2 * time.Second)
	for _, it := range f.List.Items {
		if it.Target == "new" && (it.AddsPerSecond == nil || *it.AddsPerSecond != 10) {
			t.Errorf("the new pod's second frame: %+v", it)
		}
	}
	if src.rediscovers != 1 {
		t.Errorf("rediscovered %d times 2s after the last time", src.rediscovers)
	}
	// A target that keeps failing does not make every refresh a discovery.
	src.failing["keep"] = true
	next(2 * time.Second)
	next(2 * time.Second)
	next(2 * time.Second)
	if src.rediscovers != 2 {
		t.Errorf("rediscovered %d times: once after keep started failing, not at every refresh", src.rediscovers)
	}
	// Then every 30s since the last time.
	next(20 * time.Second)
	if src.rediscovers != 2 {
		t.Errorf("rediscovered %d times before the period", src.rediscovers)
	}
	next(10 * time.Second)
	if src.rediscovers != 3 {
		t.Errorf("rediscovered %d times: the period has passed", src.rediscovers)
	}
}

// A failed rediscovery keeps the targets found before and says so; with no period the
// targets are never found again.
func TestTopRediscoverFailsOrIsOff(t *testing.T) {
	for _, every := range []time.Duration{0, time.Second} {
		now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		src := &rolloutSource{t: t, now: &now, found: []string{"a"}, failing: map[string]bool{},
			pages: map[string][2]float64{"a": {1, 1}}, err: errors.New("the API server is away")}
		top := newFrames(QueuesConfig{Thresholds: findings.DefaultThresholds()}, Env{Source: src, Now: func() time.Time { return now }})
		top.SetRediscover(every)
		if _, err := top.Next(context.Background()); err != nil {
			t.Fatal(err)
		}
		now = now.Add(2 * time.Second)
		f, err := top.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		read, _ := rows(f)
		w := strings.Join(f.Warnings, "|")
		switch {
		case every == 0 && (src.rediscovers != 0 || w != ""):
			t.Errorf("off: rediscovered %d times, warnings %q", src.rediscovers, w)
		case every > 0 && (src.rediscovers != 1 || !strings.Contains(w, "finding the targets again failed, reading those found before: the API server is away")):
			t.Errorf("failed: rediscovered %d times, warnings %q", src.rediscovers, w)
		case !slices.Equal(read, []string{"a"}):
			t.Errorf("every %s: rows %v", every, read)
		}
	}
}
