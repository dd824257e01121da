package snapshot

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/goroutines"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/logs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// tinyPage is a page of one queue, shared by every result of a many-target snapshot: a few
// kilobytes of archive that names thousands of pods.
const tinyPage = "# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"q\"} 3\n"

// manyTargets is a snapshot of n pod targets, each with two samples of one shared page, a
// kept log and a kept dump.
func manyTargets(n int) *Snapshot {
	s := &Snapshot{Pages: map[string][]byte{"pages/000-0.prom": []byte(tinyPage)}}
	t0 := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	for i := range n {
		tg := target.Target{Kind: target.KindPod, Namespace: "ns", Name: fmt.Sprintf("pod-%d", i), Port: 8080}
		s.Inventory.Targets = append(s.Inventory.Targets, tg)
		s.Results = append(s.Results, Result{Target: tg, Window: time.Minute,
			Samples:    []Sample{{Time: t0, Page: "pages/000-0.prom"}, {Time: t0.Add(time.Minute), Page: "pages/000-0.prom"}},
			Log:        &logs.Log{Pod: "ns/" + tg.Name, Lines: i},
			Goroutines: &goroutines.Profile{Goroutines: i}})
	}
	return s
}

// keepAll keeps every family (a nil Keep leaves the samples out).
func keepAll(string) bool { return true }

func modelOf(t target.Target) model.Target { return model.Target{Facts: model.Facts{Target: t}} }

// Finding a target's log and dump costs the same in a snapshot of 20 targets as in one of
// 4,000: a look-up, not a scan of every stored result (which made a report of a snapshot of
// thousands of pods quadratic).
func TestReplayFindsLogsAndDumpsByIndex(t *testing.T) {
	ctx := context.Background()
	allocs := func(n int) float64 {
		s := manyTargets(n)
		p := NewReplay(s)
		last := modelOf(s.Results[n-1].Target)
		if l := p.Log(ctx, last, logs.PodLogRequest{}); l == nil || l.Lines != n-1 {
			t.Fatalf("%d targets: log %+v, want the last target's", n, l)
		}
		if g := p.Goroutines(ctx, last, goroutines.Want{}, goroutines.Bounds{}); g == nil || g.Goroutines != n-1 {
			t.Fatalf("%d targets: dump %+v, want the last target's", n, g)
		}
		return testing.AllocsPerRun(20, func() {
			p.Log(ctx, last, logs.PodLogRequest{})
			p.Goroutines(ctx, last, goroutines.Want{}, goroutines.Bounds{})
		})
	}
	small, large := allocs(20), allocs(4000)
	if large > small {
		t.Errorf("a look-up allocates %.0f times among 4000 targets, %.0f among 20: it scans the stored results", large, small)
	}
}

// A replay whose context has ended parses no page and gives no log or dump: every result keeps
// its target and says it was not replayed, and why.
func TestReplayStopsWhenTheContextEnds(t *testing.T) {
	s := manyTargets(50)
	p := NewReplay(s)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	done := 0
	res := p.Read(ctx, source.Options{Keep: keepAll, Done: func() { done++ }})
	if len(res) != 50 || done != 50 {
		t.Fatalf("%d results, %d done, want 50 of each", len(res), done)
	}
	for i, r := range res {
		if len(r.Samples) != 0 || r.Window != 0 || r.Target != s.Results[i].Target || r.Err == nil || !errors.Is(r.Err, context.Canceled) {
			t.Fatalf("result %d: %d samples, window %s, target %v, err %v; want none, the target, and the context's error", i, len(r.Samples), r.Window, r.Target, r.Err)
		}
	}
	tg := modelOf(s.Results[0].Target)
	if l := p.Log(ctx, tg, logs.PodLogRequest{}); l != nil {
		t.Errorf("log %+v after the context ended", l)
	}
	if g := p.Goroutines(ctx, tg, goroutines.Want{}, goroutines.Bounds{}); g != nil {
		t.Errorf("dump %+v after the context ended", g)
	}
}

// Ended by the overall deadline, a result says so in the words of a live reading, naming the
// deadline.
func TestReplayNamesTheDeadline(t *testing.T) {
	clock := source.Clock{Start: time.Now().Add(-time.Minute), Limit: 3 * time.Second}
	ctx, cancel := clock.Bound(context.Background())
	defer cancel()
	<-ctx.Done()
	err := stopped(ctx)
	if !strings.HasPrefix(err.Error(), "overall deadline reached: --deadline 3s passed") {
		t.Errorf("error %q, want the overall deadline named", err)
	}
}

// BenchmarkReplay reads a snapshot of many pod targets back as a report does: every page
// parsed, then each target's log and dump looked up.
func BenchmarkReplay(b *testing.B) {
	for _, n := range []int{100, 2000} {
		s := manyTargets(n)
		ts := make([]model.Target, n)
		for i, r := range s.Results {
			ts[i] = modelOf(r.Target)
		}
		b.Run(fmt.Sprintf("targets-%d", n), func(b *testing.B) {
			b.ReportAllocs()
			ctx := context.Background()
			for range b.N {
				p := NewReplay(s)
				if res := p.Read(ctx, source.Options{Keep: keepAll}); len(res[n-1].Samples) != 2 {
					b.Fatalf("%d samples replayed, want 2", len(res[n-1].Samples))
				}
				for _, t := range ts {
					p.Log(ctx, t, logs.PodLogRequest{})
					p.Goroutines(ctx, t, goroutines.Want{}, goroutines.Bounds{})
				}
			}
		})
	}
}
