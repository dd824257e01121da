package run

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// queuePage is a page of one workqueue "widget" with the depth and adds given.
func queuePage(t *testing.T, depth, adds float64) map[string]*dto.MetricFamily {
	t.Helper()
	text := fmt.Sprintf(`# TYPE workqueue_depth gauge
workqueue_depth{name="widget"} %g
# TYPE workqueue_adds_total counter
workqueue_adds_total{name="widget"} %g
`, depth, adds)
	p, err := parse.Parse("test", strings.NewReader(text), nil)
	if err != nil {
		t.Fatal(err)
	}
	return p.Families
}

// changingSource serves, on its n-th Read, the pages step(n) gives per target (nil: that
// target fails), 2s apart. It counts its Opens.
type changingSource struct {
	t     *testing.T
	opens int
	reads int
	start time.Time
	step  func(n int) map[string]*[2]float64
}

func (s *changingSource) Open(context.Context) (*source.Inventory, error) {
	s.opens++
	return &source.Inventory{Targets: []target.Target{{Kind: target.KindURL, Name: "a"}, {Kind: target.KindURL, Name: "b"}}}, nil
}

func (s *changingSource) Read(_ context.Context, o source.Options) []source.Result {
	if o.Interval != 0 {
		s.t.Errorf("top asked for two samples (interval %s): each refresh is one", o.Interval)
	}
	at := s.start.Add(time.Duration(s.reads) * 2 * time.Second)
	pages := s.step(s.reads)
	s.reads++
	var out []source.Result
	for _, name := range []string{"a", "b"} {
		r := source.Result{Target: target.Target{Kind: target.KindURL, Name: name}}
		if v := pages[name]; v != nil {
			r.Samples = []source.Sample{{Families: queuePage(s.t, v[0], v[1]), Time: at}}
		} else {
			r.Err = errors.New("connection refused")
		}
		out = append(out, r)
	}
	return out
}

func TestTopRatesBetweenRefreshesOverOneOpenedSource(t *testing.T) {
	src := &changingSource{t: t, start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), step: func(n int) map[string]*[2]float64 {
		switch n {
		case 0:
			return map[string]*[2]float64{"a": {5, 100}, "b": {1, 10}}
		case 1: // a: depth climbs to 150, 20 adds in 2s; b goes away
			return map[string]*[2]float64{"a": {150, 120}}
		default: // b is back
			return map[string]*[2]float64{"a": {150, 160}, "b": {1, 12}}
		}
	}}
	top := newFrames(QueuesConfig{Thresholds: findings.DefaultThresholds()}, Env{Source: src})
	ctx := context.Background()

	f, err := top.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if f.Window() != "lifetime" || len(f.List.Items) != 2 || f.List.Items[0].AddsPerSecond != nil {
		t.Fatalf("first frame: window %s, items %+v", f.Window(), f.List.Items)
	}

	f, err = top.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.List.Items) != 1 || len(f.List.Errors) != 1 || f.List.Errors[0].Target != "b" {
		t.Fatalf("second frame: items %+v errors %+v", f.List.Items, f.List.Errors)
	}
	a := f.List.Items[0]
	if f.Window() != "2s" || a.AddsPerSecond == nil || *a.AddsPerSecond != 10 || *a.Depth != 150 || a.Status != "BACKLOG" {
		t.Fatalf("second frame: window %s, a %+v adds %v", f.Window(), a, a.AddsPerSecond)
	}
	var backlog bool
	for _, fd := range f.Findings {
		backlog = backlog || (fd.Target == "a" && fd.Queue == "widget" && fd.Check == "backlog-growing")
	}
	if !backlog {
		t.Errorf("no backlog-growing finding of a/widget among %+v", f.Findings)
	}

	f, err = top.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.List.Items) != 2 || len(f.List.Errors) != 0 || *f.List.Items[0].AddsPerSecond != 20 {
		t.Fatalf("third frame: %+v %+v", f.List.Items, f.List.Errors)
	}
	for _, it := range f.List.Items {
		if it.Target == "b" && (it.Window != "lifetime" || it.AddsPerSecond != nil) {
			t.Errorf("b came back: its first frame is lifetime, got %+v", it)
		}
	}
	if src.opens != 1 || src.reads != 3 {
		t.Errorf("opens %d reads %d: the source is opened once and read once per refresh", src.opens, src.reads)
	}
}

// The history is asked once, with the opened targets and the first frame's time, and only
// the first frame carries it; when it fails, the first frame carries a warning instead.
func TestTopHistoryOnlyInTheFirstFrame(t *testing.T) {
	for _, fail := range []bool{false, true} {
		start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		src := &changingSource{t: t, start: start, step: func(int) map[string]*[2]float64 {
			return map[string]*[2]float64{"a": {1, 1}, "b": {1, 1}}
		}}
		top := newFrames(QueuesConfig{Thresholds: findings.DefaultThresholds()}, Env{Source: src, Now: func() time.Time { return start }})
		asked := 0
		top.SetHistory(func(_ context.Context, targets []target.Target, end time.Time) ([]health.QueueHistory, []string, error) {
			asked++
			if len(targets) != 2 || !end.Equal(start) {
				t.Errorf("history asked for %v up to %s", targets, end)
			}
			if fail {
				return nil, nil, errors.New("Prometheus at p: connection refused")
			}
			return []health.QueueHistory{{Target: "a", Queue: "widget", Depth: []float64{1, 2}, Adds: []float64{3, 4}}}, []string{"a note"}, nil
		})
		first, err := top.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		second, err := top.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if asked != 1 || second.History != nil {
			t.Errorf("asked %d times; second frame's history %v", asked, second.History)
		}
		w := strings.Join(first.Warnings, "\n")
		switch {
		case fail && (first.History != nil || !strings.Contains(w, "no history, the sparklines start empty: Prometheus at p: connection refused")):
			t.Errorf("failed history: %v, warnings %q", first.History, w)
		case !fail && (len(first.History) != 1 || first.History[0].Target != "a" || w != "a note"):
			t.Errorf("history %v, warnings %q", first.History, w)
		}
	}
}
