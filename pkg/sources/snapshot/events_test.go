package snapshot

import (
	"context"
	"strings"
	"testing"
	"time"
)

// A snapshot taken before Warning events were recorded replays without them, and says so.
func TestReplayOfASnapshotWithoutWarningEvents(t *testing.T) {
	inv, err := NewReplay(&Snapshot{Cluster: &ClusterAnswers{}}).Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	v := inv.Cluster.Events(context.Background(), "ops", nil, nil, time.Time{})
	if len(v.Groups) != 0 || len(v.Notes) != 1 || !strings.Contains(v.Notes[0], "the snapshot holds no Warning events") {
		t.Errorf("replayed events %+v", v)
	}
}
