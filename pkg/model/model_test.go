package model

import (
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

func page(t *testing.T, depth string) source.Sample {
	t.Helper()
	p, err := parse.Parse("page", strings.NewReader("# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"widgets\"} "+depth+"\n"), health.Wanted)
	if err != nil {
		t.Fatal(err)
	}
	return source.Sample{Families: p.Families}
}

// Every sample gets its own snapshot, in the samples' order and at their times; a target that
// gave no sample has none, and its First and Last are nil.
func TestBuild(t *testing.T) {
	at := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	a, b := page(t, "3"), page(t, "7")
	a.Time, b.Time = at, at.Add(10*time.Second)
	results := []source.Result{
		{Target: target.Target{Kind: target.KindFile, Name: "two"}, Samples: []source.Sample{a, b}, Window: 10 * time.Second},
		{Target: target.Target{Kind: target.KindFile, Name: "none"}},
	}
	got := Build(results)
	if len(got) != 2 || got[0].ID() != "two" || got[1].ID() != "none" {
		t.Fatalf("targets: %+v", got)
	}
	two := got[0]
	if len(two.Snapshots) != 2 || two.First() != two.Snapshots[0] || two.Last() != two.Snapshots[1] {
		t.Fatalf("snapshots: %+v", two.Snapshots)
	}
	for i, want := range []struct {
		at    time.Time
		depth float64
	}{{a.Time, 3}, {b.Time, 7}} {
		s := two.Snapshots[i]
		if q := s.Queues["widgets"]; !s.Time.Equal(want.at) || q == nil || q.Depth != want.depth {
			t.Errorf("snapshot %d: time %v, queue %+v; want %v, depth %v", i, s.Time, q, want.at, want.depth)
		}
	}
	if none := got[1]; len(none.Snapshots) != 0 || none.First() != nil || none.Last() != nil {
		t.Errorf("a target without samples: %+v", none)
	}
	back := Results(got)
	if len(back) != 2 || back[0].Window != 10*time.Second || len(back[0].Samples) != 2 || back[1].ID() != "none" {
		t.Errorf("results: %+v", back)
	}
}
