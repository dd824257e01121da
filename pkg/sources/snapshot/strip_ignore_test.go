package snapshot_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/run"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/snapshot"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// The checks a workload accepts (ctrldiag.io/ignore) stay in the snapshot, so that the report
// read from it suppresses what the live one did; other annotations go.
func TestStripKeepsTheIgnoreAnnotation(t *testing.T) {
	p := controllerPod(time.Now())
	p.Annotations["ctrldiag.io/ignore"] = "CD208"
	got := snapshot.Strip(p).Annotations
	if got["ctrldiag.io/ignore"] != "CD208" || got["prometheus.io/port"] != "8080" || len(got) != 2 {
		t.Errorf("annotations after Strip: %v", got)
	}

	ctx := context.Background()
	pod := controllerPod(time.Date(2026, 11, 22, 2, 0, 0, 0, time.UTC))
	pod.Annotations["ctrldiag.io/ignore"] = "CD208,backlog-growing"
	tgt := target.Target{Kind: target.KindPod, Namespace: "ops", Name: pod.Name, Workload: "deployment/widget", Port: 8080, Ready: true}
	cfg := run.ReportConfig{Thresholds: findings.DefaultThresholds(), Scope: source.Scope{Cluster: true, Namespace: "ops"},
		Read: source.Options{Interval: time.Second, Timeout: 5 * time.Second}}
	now := time.Date(2026, 11, 22, 3, 10, 0, 0, time.UTC)
	rec := snapshot.Record(&podSource{pod: pod, tgt: tgt})
	live := reportJSON(t, ctx, cfg, run.Env{Source: rec, Now: func() time.Time { return now }})
	var file bytes.Buffer
	if err := rec.Snapshot(ctx, snapshot.Manifest{Taken: now, Scope: snapshot.Scope{Cluster: true, Namespace: "ops"}}).Write(&file); err != nil {
		t.Fatal(err)
	}
	back, err := snapshot.Read(bytes.NewReader(file.Bytes()), snapshot.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	replay := reportJSON(t, ctx, cfg, run.Env{Source: snapshot.NewReplay(back), Now: func() time.Time { return back.Manifest.Taken }})
	source := `"source": "annotation ctrldiag.io/ignore on pod ops/` + pod.Name + `"`
	if strings.Count(string(live), source) != 2 || !bytes.Equal(live, replay) {
		t.Errorf("live and replayed reports must both suppress workers-saturated and backlog-growing:\n%s\n%s", live, firstDifference(live, replay))
	}
}
