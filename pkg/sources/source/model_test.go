package source

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// What a source read becomes the model with every fact it carried and one snapshot per
// sample, in order; snapshots built before stand in for the samples' with With.
func TestModel(t *testing.T) {
	at := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	p, err := parse.Parse("page", strings.NewReader("# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"widgets\"} 3\n"), health.Wanted)
	if err != nil {
		t.Fatal(err)
	}
	read := Result{Target: target.Target{Kind: target.KindFile, Name: "two"}, Window: 10 * time.Second, ResetsCounted: true,
		Samples: []Sample{{Families: p.Families, Time: at.Add(-10 * time.Second)}, {Families: p.Families, Time: at}},
		Err:     errors.New("late"), Notes: []string{"fell back"}}
	failed := Result{Target: target.Target{Kind: target.KindFile, Name: "none"}, Err: errors.New("gone")}
	got := Model([]Result{read, failed})
	if len(got) != 2 || got[0].ID() != "two" || got[1].ID() != "none" {
		t.Fatalf("targets: %+v", got)
	}
	m := got[0]
	if m.Window != read.Window || !m.ResetsCounted || m.Err != read.Err || len(m.Notes) != 1 || len(m.Snapshots) != 2 ||
		!m.First().Time.Equal(at.Add(-10*time.Second)) || m.Last().Queues["widgets"].Depth != 3 {
		t.Errorf("model of a target read twice: %+v", m)
	}
	if got[1].Read() || got[1].ErrText() != "gone" {
		t.Errorf("model of a target that failed: %+v", got[1])
	}
	kept := m.Last()
	if w := read.With(kept); len(w.Snapshots) != 1 || w.Last() != kept || w.Window != read.Window {
		t.Errorf("With: %+v", w)
	}
}
