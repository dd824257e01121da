package snapshot

import (
	"context"
	"encoding/json"
	"testing"
)

// The FlowSchemas a report read are kept with the cluster's answers and given back by the
// replay as they were; a snapshot without them says so.
func TestFlowSchemasRecordedAndReplayed(t *testing.T) {
	ctx := context.Background()
	rec := &recordingCluster{live: &fakeCluster{}}
	live := rec.FlowSchemas(ctx)
	b, err := json.Marshal(rec.answers())
	if err != nil {
		t.Fatal(err)
	}
	var a ClusterAnswers
	if err := json.Unmarshal(b, &a); err != nil {
		t.Fatal(err)
	}
	got := (&replayCluster{a: &a}).FlowSchemas(ctx)
	if len(got.FlowSchemas) != 1 || got.FlowSchemas[0].Name != live.FlowSchemas[0].Name || got.FlowSchemas[0].PriorityLevel != "workload-low" {
		t.Errorf("replayed %+v, recorded %+v", got, live)
	}
	none := (&replayCluster{a: &ClusterAnswers{}}).FlowSchemas(ctx)
	if len(none.FlowSchemas) != 0 || len(none.Notes) != 1 || none.Notes[0] != "the snapshot holds no FlowSchemas" {
		t.Errorf("a snapshot without FlowSchemas replays %+v", none)
	}
}
