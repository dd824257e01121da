package snapshot

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/logs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/collect"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// logged is saved pages that also answer for a controller's log, as a cluster would.
type logged struct{ source.Source }

func (logged) Log(_ context.Context, t model.Target, req logs.PodLogRequest) *logs.Log {
	return &logs.Log{Pod: "ops/op-0", Container: "manager", Since: req.Since, From: req.From, Lines: 12, Bytes: 900,
		Failures:   []logs.Failure{{Controller: "configmap", Object: "shop/app-config", Error: "backend refused", Count: 3, Last: time.Date(2026, 11, 26, 11, 0, 0, 0, time.UTC)}},
		Throttling: &logs.Throttling{Count: 4, LongestSeconds: 2.5}}
}

// What was extracted of a log read through the recorder is kept with its target's result and
// replayed from the written file; a snapshot without it (older ones) replays none.
func TestSnapshotKeepsAndReplaysTheLog(t *testing.T) {
	ctx := context.Background()
	rec := Record(logged{collect.New(collect.Config{Files: []string{"../../../testdata/pages/controller-runtime-1.prom"}}, nil)})
	if _, err := rec.Open(ctx); err != nil {
		t.Fatal(err)
	}
	results := rec.Read(ctx, source.Options{Timeout: time.Second})
	if len(results) != 1 {
		t.Fatalf("%d results", len(results))
	}
	target := results[0].Model()
	req := logs.PodLogRequest{Since: time.Date(2026, 11, 26, 10, 58, 0, 0, time.UTC), From: time.Date(2026, 11, 26, 11, 0, 0, 0, time.UTC)}
	want := rec.Log(ctx, target, req)
	back := readBack(t, ctx, rec)
	got := NewReplay(back).Log(ctx, target, logs.PodLogRequest{})
	wj, _ := json.Marshal(want)
	gj, _ := json.Marshal(got)
	if got == nil || !bytes.Equal(wj, gj) {
		t.Errorf("replayed %s\nwant %s", gj, wj)
	}
	back.Results[0].Log = nil // as a snapshot made before logs were read
	if l := NewReplay(back).Log(ctx, target, req); l != nil {
		t.Errorf("a snapshot without a log replayed %+v", l)
	}
}
