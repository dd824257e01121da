package model

import (
	"errors"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

func page(t *testing.T, depth string, at time.Time) Page {
	t.Helper()
	p, err := parse.Parse("page", strings.NewReader("# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"widgets\"} "+depth+"\n"), health.Wanted)
	if err != nil {
		t.Fatal(err)
	}
	return Page{Families: p.Families, Time: at}
}

// Every page gets its own snapshot, in the pages' order and at their times, beside the facts
// it was given; a target that gave no page has none, its First and Last are nil, and its
// error is what it says.
func TestOf(t *testing.T) {
	at := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	two := Of(Facts{Target: target.Target{Kind: target.KindFile, Name: "two"}, Window: 10 * time.Second,
		Pod: &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "op"}}}},
		[]Page{page(t, "3", at), page(t, "7", at.Add(10*time.Second))})
	if two.ID() != "two" || two.Window != 10*time.Second || !two.Read() || two.PodLabels()["app"] != "op" {
		t.Fatalf("target: %+v", two)
	}
	if len(two.Snapshots) != 2 || two.First() != two.Snapshots[0] || two.Last() != two.Snapshots[1] {
		t.Fatalf("snapshots: %+v", two.Snapshots)
	}
	for i, want := range []struct {
		at    time.Time
		depth float64
	}{{at, 3}, {at.Add(10 * time.Second), 7}} {
		s := two.Snapshots[i]
		if q := s.Queues["widgets"]; !s.Time.Equal(want.at) || q == nil || q.Depth != want.depth {
			t.Errorf("snapshot %d: time %v, queue %+v; want %v, depth %v", i, s.Time, q, want.at, want.depth)
		}
	}
	none := Of(Facts{Target: target.Target{Kind: target.KindFile, Name: "none"}}, nil)
	if none.Read() || none.First() != nil || none.Last() != nil || none.PodLabels() != nil || none.ErrText() != "no sample" {
		t.Errorf("a target without pages: %+v", none)
	}
	if failed := Of(Facts{Err: errors.New("connection refused")}, nil); failed.ErrText() != "connection refused" {
		t.Errorf("a target that failed says %q", failed.ErrText())
	}
}
