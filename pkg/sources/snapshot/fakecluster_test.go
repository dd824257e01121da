package snapshot

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/apiserver"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/events"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/cachesync"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// fakeCluster answers like a cluster whose second generation check finds one object still
// lagging.
type fakeCluster struct{ gens int }

func (f *fakeCluster) Generations(context.Context, string, []schema.GroupVersionResource) []cachesync.GenerationReport {
	f.gens++
	return []cachesync.GenerationReport{{Resource: "deployments.apps", Checked: 3 + f.gens}}
}

func (f *fakeCluster) Objects(context.Context, string, []objects.Controller, map[string]schema.GroupKind) objects.View {
	return objects.View{Kinds: []objects.Summary{{Kind: objects.Kind{Group: "example.com", Kind: "Widget"}, Controllers: []string{"x widget"},
		Total: 5, Failed: 1, Reasons: []objects.Reason{{Condition: "Ready=False", Reason: "Broken", Count: 1, Objects: []string{"ops/w1"}}},
		Changes: &objects.Changes{Count: 40, Seconds: 5}, TimeToReady: &objects.TimeToReady{Seconds: 5, Changes: 4, Ready: 3, Pending: 1}}}}
}

func (f *fakeCluster) WorkloadAnnotation(_ context.Context, key string, workloads []string) (map[string]string, []string) {
	out := map[string]string{}
	for _, w := range workloads {
		if w == "ops/deployment/widget" && key == "ctrldiag.io/ignore" {
			out[w] = "restarts"
		}
	}
	return out, nil
}

func (f *fakeCluster) WatchChanges(context.Context, string, []objects.Controller, map[string]schema.GroupKind, time.Duration) {
}

func (f *fakeCluster) Usage(context.Context, []string) (map[string]source.PodUsage, string) {
	return map[string]source.PodUsage{"ops/widget-7d9f-abcde": {CPUCores: 0.25, MemoryBytes: 100 << 20}, "other/x": {CPUCores: 1}}, ""
}

func (f *fakeCluster) Admission(context.Context) apiserver.Admission { return apiserver.Admission{} }
func (f *fakeCluster) OwnedKinds(context.Context, []apiserver.Webhook, []apiserver.Owner) apiserver.Ownership {
	return apiserver.Ownership{}
}

func (f *fakeCluster) FlowSchemas(context.Context) apiserver.FlowControl {
	return apiserver.FlowControl{FlowSchemas: []apiserver.FlowSchema{{Name: "service-accounts", PriorityLevel: "workload-low", MatchingPrecedence: 9000}}}
}

func (f *fakeCluster) Events(_ context.Context, _ string, _ []objects.Controller, _ map[string]schema.GroupKind, since time.Time) events.View {
	return events.View{Since: since, Namespaces: []string{"ops"}, Read: 3, Groups: []events.Group{{Reason: "QuotaExceeded", Kind: "Widget",
		Object: "ops/w1", Count: 3, LastSeen: since.Add(time.Second), Message: "exceeded quota: widgets", Reporter: "widget-controller",
		Controllers: []string{"x widget"}}}}
}

func (f *fakeCluster) LeaseHolders(context.Context, []string) []model.Holder {
	return []model.Holder{{Namespace: "ops", Lease: "widget-lock", Identity: "widget-7d9f-abcde_1"}}
}
