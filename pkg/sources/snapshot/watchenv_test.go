package snapshot

import (
	"context"
	"reflect"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/collect"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// scoped is saved pages read as if from an operator pod whose WATCH_NAMESPACE a cluster
// resolved from a ConfigMap.
type scoped struct{ source.Source }

var scopedEnv = map[string]*knobs.WatchEnv{"manager": {Values: map[string]string{"WATCH_NAMESPACE": "ops", "WATCH_NAMESPACES": ""}},
	"sidecar": {Unresolved: []string{"WATCH_NAMESPACE"}, Notes: []string{"WATCH_NAMESPACE comes from Secret creds, which is never read"}}}

func (s scoped) Open(ctx context.Context) (*source.Inventory, error) {
	inv, err := s.Source.Open(ctx)
	if err == nil {
		inv.Pods = map[string]*corev1.Pod{"ops/op": {ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "op"}}}
		inv.WatchEnv = map[string]map[string]*knobs.WatchEnv{"ops/op": scopedEnv}
	}
	return inv, err
}

func (s scoped) Read(ctx context.Context, o source.Options) []source.Result {
	rs := s.Source.Read(ctx, o)
	for i := range rs {
		rs[i].Pod = &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "op"}}
		rs[i].WatchEnv = scopedEnv
	}
	return rs
}

// The resolved WATCH_NAMESPACE(S) are kept with the target's result and replayed from the
// written file, into the model and the inventory; an older snapshot replays none.
func TestSnapshotKeepsTheResolvedWatchNamespace(t *testing.T) {
	ctx := context.Background()
	rec := Record(scoped{collect.New(collect.Config{Files: []string{"../../../testdata/pages/controller-runtime-1.prom"}}, nil)})
	if _, err := rec.Open(ctx); err != nil {
		t.Fatal(err)
	}
	if rs := rec.Read(ctx, source.Options{Timeout: time.Second}); len(rs) != 1 {
		t.Fatalf("%d results", len(rs))
	}
	back := readBack(t, ctx, rec)
	replay := NewReplay(back)
	inv, err := replay.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(inv.WatchEnv["ops/op"], scopedEnv) {
		t.Errorf("inventory replayed %+v", inv.WatchEnv)
	}
	rs := replay.Read(ctx, source.Options{})
	if len(rs) != 1 || !reflect.DeepEqual(rs[0].Model().WatchEnv, scopedEnv) {
		t.Errorf("replayed %+v", rs)
	}
	back.Results[0].WatchEnv = nil // as a snapshot made before they were resolved
	if rs := NewReplay(back).Read(ctx, source.Options{}); len(rs) != 1 || rs[0].WatchEnv != nil {
		t.Errorf("an older snapshot replayed %+v", rs)
	}
}
