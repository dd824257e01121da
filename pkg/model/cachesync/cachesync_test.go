package cachesync

import (
	"context"
	"math"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

func TestInformersComparesWithTheAPIServer(t *testing.T) {
	key := health.InformerKey{Name: "op", Group: "demo.ctrldiag.dev", Version: "v1alpha1", Resource: "workloads"}
	lat := func(n float64) *health.Histogram {
		return &health.Histogram{Count: n, Sum: n * 5, Buckets: []health.Bucket{{UpperBound: 1, Count: 0}, {UpperBound: 10, Count: n}, {UpperBound: math.Inf(1), Count: n}}}
	}
	prev := &health.Snapshot{Informers: map[health.InformerKey]*health.Informer{key: {QueuedItems: 200, ResourceVersion: 900, ProcessingLatency: lat(10)}}}
	cur := &health.Snapshot{Informers: map[health.InformerKey]*health.Informer{key: {QueuedItems: 500, ResourceVersion: 950, ProcessingLatency: lat(30)}}}
	gr := health.GroupResource{Group: "demo.ctrldiag.dev", Resource: "workloads"}
	apiPrev := &health.Snapshot{WatchCache: map[health.GroupResource]float64{gr: 1000}}
	apiCur := &health.Snapshot{WatchCache: map[health.GroupResource]float64{gr: 1300}}

	got := Informers("ns/op:8080", prev, cur, apiPrev, apiCur)
	if len(got) != 1 {
		t.Fatalf("got %d informers", len(got))
	}
	i := got[0]
	if i.Method != MethodResourceVersion || i.VersionsBehind != 350 || !i.BehindAPIServer || i.QueuedItems != 500 ||
		i.LatencyP99Seconds < 9 || i.Label() != "op/workloads.demo.ctrldiag.dev" {
		t.Errorf("informer: %+v", i)
	}
	// Without the API server only the informer's own metrics are known.
	got = Informers("ns/op:8080", prev, cur, nil, nil)
	if got[0].Method != MethodInformerMetrics || !math.IsNaN(got[0].VersionsBehind) || got[0].BehindAPIServer {
		t.Errorf("without the API server: %+v", got[0])
	}
}

func TestGenerations(t *testing.T) {
	obj := func(name string, gen, observed int64) *unstructured.Unstructured {
		u := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "apps/v1", "kind": "Deployment",
			"metadata": map[string]any{"name": name, "namespace": "ns", "generation": gen},
			"status":   map[string]any{"observedGeneration": observed},
		}}
		return u
	}
	gvr := schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{gvr: "DeploymentList"}, obj("ok", 3, 3), obj("late", 5, 4))
	r := Generations(context.Background(), dyn, "ns", []schema.GroupVersionResource{gvr})
	if len(r) != 1 || r[0].Checked != 2 || len(r[0].Lagging) != 1 || r[0].Lagging[0].Name != "late" || r[0].Error != "" {
		t.Fatalf("report: %+v", r)
	}
	again := Generations(context.Background(), dyn, "ns", []schema.GroupVersionResource{gvr})
	still := Still(r, again)
	if len(still) != 1 || still[0].StillLagging != 1 {
		t.Errorf("still lagging: %+v", still)
	}
	if again[0].StillLagging != 0 || Still(nil, again)[0].StillLagging != 0 {
		t.Errorf("Still wrote into its input, or counted without a report before: %+v", again[0])
	}
}
