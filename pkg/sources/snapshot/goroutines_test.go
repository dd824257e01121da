package snapshot

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/goroutines"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/collect"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// profiled is saved pages that also answer for a goroutine dump, as a cluster would.
type profiled struct {
	source.Source
	asked []string
}

func (p *profiled) Goroutines(_ context.Context, t model.Target, _ goroutines.Want, _ goroutines.Bounds) *goroutines.Profile {
	p.asked = append(p.asked, t.ID())
	return &goroutines.Profile{Endpoint: t.ID() + "/debug/pprof/goroutine", Goroutines: 40, Workers: 2, Groups: []goroutines.Group{{
		Count: 2, State: "select", Longest: 3 * time.Minute, Wait: goroutines.Frame{Func: "net/http.(*Client).Do"},
		Own: goroutines.Frame{Func: "main.(*annotator).callBackend", File: "/src/backend.go", Line: 42}}}}
}

// A dump read through the recorder is kept with its target's result and replayed from the
// written file; a snapshot without one (older ones) replays none.
func TestSnapshotKeepsAndReplaysTheGoroutineDump(t *testing.T) {
	ctx := context.Background()
	live := &profiled{Source: collect.New(collect.Config{Files: []string{"../../../testdata/pages/controller-runtime-1.prom"}}, nil)}
	rec := Record(live)
	if _, err := rec.Open(ctx); err != nil {
		t.Fatal(err)
	}
	results := rec.Read(ctx, source.Options{Timeout: time.Second})
	if len(results) != 1 {
		t.Fatalf("%d results", len(results))
	}
	target := results[0].Model()
	want := rec.Goroutines(ctx, target, goroutines.Want{}, goroutines.DefaultBounds())
	back := readBack(t, ctx, rec)
	got := NewReplay(back).Goroutines(ctx, target, goroutines.Want{}, goroutines.DefaultBounds())
	wj, _ := json.Marshal(want)
	gj, _ := json.Marshal(got)
	if got == nil || !bytes.Equal(wj, gj) {
		t.Errorf("replayed %s\nwant %s", gj, wj)
	}

	back.Results[0].Goroutines = nil // as a snapshot made before dumps were read
	if p := NewReplay(back).Goroutines(ctx, target, goroutines.Want{}, goroutines.DefaultBounds()); p != nil {
		t.Errorf("a snapshot without a dump replayed %+v", p)
	}
	var old Result
	if err := json.Unmarshal([]byte(`{"target":{"kind":"file","name":"x","ready":true,"reason":""},"windowNanoseconds":0}`), &old); err != nil || old.Goroutines != nil {
		t.Errorf("an older result: %+v %v", old, err)
	}
}
