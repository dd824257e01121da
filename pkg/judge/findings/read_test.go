package findings

import (
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/testpages"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// Read judges the snapshots of the model it is given, built once after the reading, and
// does not build them again from the pages: here the pages say nothing and the snapshots hold
// the queue.
func TestReadJudgesTheModelsSnapshots(t *testing.T) {
	at := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	snap := func(adds string, at time.Time) *health.Snapshot {
		return health.FromFamilies(testpages.ParseText(t, "# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"widgets\"} 4\n"+
			"# TYPE workqueue_adds_total counter\nworkqueue_adds_total{name=\"widgets\"} "+adds+"\n"), at)
	}
	m := model.Target{
		Facts:     model.Facts{Target: target.Target{Kind: target.KindFile, Name: "page"}, Window: 10 * time.Second},
		Snapshots: []*health.Snapshot{snap("100", at.Add(-10*time.Second)), snap("150", at)},
	}
	got, ok := Read(m, DefaultThresholds(), nil)
	if !ok || got.Prev != m.Snapshots[0] || got.Cur != m.Snapshots[1] || got.Window != 10*time.Second {
		t.Fatalf("read %v: prev %p cur %p window %v; want the model's %p %p", ok, got.Prev, got.Cur, got.Window, m.Snapshots[0], m.Snapshots[1])
	}
	if len(got.Queues) != 1 || got.Queues[0].Queue != "widgets" || got.Queues[0].Depth != 4 || got.Queues[0].AddsPerSecond != 5 {
		t.Errorf("queues: %+v", got.Queues)
	}
	if _, ok := Read(model.Target{Facts: m.Facts}, DefaultThresholds(), nil); ok {
		t.Error("a target without snapshots was read")
	}
}
