package snapshot_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/run"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/collect"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/snapshot"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// A snapshot keeps the pages as read, so a family the report reads reduced (the API server's
// request latency) is in it whole, every series and label; replayed, it is read as the
// replaying command asks: reduced for a report, whole without a Reduce.
func TestSnapshotKeepsAReducedFamilyWhole(t *testing.T) {
	const family = "apiserver_request_duration_seconds"
	ctx := context.Background()
	rec := snapshot.Record(collect.New(collect.Config{Files: []string{"../../../testdata/pages/kube-apiserver-1.prom.gz"}}, nil))
	cfg := run.ReportConfig{Thresholds: findings.DefaultThresholds(), Read: source.Options{Timeout: 5 * time.Second}}
	if _, err := run.ReportWith(ctx, cfg, run.Env{Source: rec}); err != nil {
		t.Fatal(err)
	}
	snap := rec.Snapshot(ctx, snapshot.Manifest{Taken: time.Now()})
	var page []byte
	for _, p := range snap.Pages {
		page = p
	}
	watch := family + `_count{component="apiserver",dry_run="",group="kwok.x-k8s.io",resource="portforwards",scope="cluster",subresource="",verb="WATCH"`
	if !bytes.Contains(page, []byte(watch)) {
		t.Fatalf("the stored page lacks %s", watch)
	}
	reduce := map[string]parse.Reduce{}
	for name, r := range health.Reduced() {
		reduce[name] = parse.Reduce(r)
	}
	series := func(o source.Options) (n int, scope bool) {
		replay := snapshot.NewReplay(snap)
		if _, err := replay.Open(ctx); err != nil {
			t.Fatal(err)
		}
		res := replay.Read(ctx, o)
		if len(res) != 1 || len(res[0].Samples) != 1 {
			t.Fatalf("%+v", res)
		}
		for _, m := range res[0].Samples[0].Families[family].GetMetric() {
			for _, l := range m.GetLabel() {
				scope = scope || l.GetName() == "scope"
			}
		}
		return len(res[0].Samples[0].Families[family].GetMetric()), scope
	}
	whole, wholeScope := series(source.Options{Keep: health.Wanted})
	reduced, reducedScope := series(source.Options{Keep: health.Wanted, Reduce: reduce})
	if whole != strings.Count(string(page), family+"_count{") || !wholeScope || reduced == 0 || reduced >= whole || reducedScope {
		t.Fatalf("replayed whole: %d series (scope %v); reduced: %d (scope %v)", whole, wholeScope, reduced, reducedScope)
	}
}
