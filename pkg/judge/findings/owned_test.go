package findings

import (
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/apiserver"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// An operator's slow webhook on the ConfigMaps it creates as children is tied to its queue
// only when the owner-reference probe found ConfigMaps owned by its kind; the probe looks
// only at slow or rejecting webhooks.
func TestWebhookOnOwnedKind(t *testing.T) {
	key := health.AdmissionKey{Name: "slow-cm.example.com", Type: "validating", Operation: "CREATE"}
	fastKey := health.AdmissionKey{Name: "fast-cm.example.com", Type: "validating", Operation: "CREATE"}
	rules := []apiserver.Rule{{Operations: []string{"CREATE", "UPDATE"}, APIGroups: []string{""}, Resources: []string{"configmaps"}, Scope: "*"}}
	view := func(o *apiserver.Ownership) *apiserver.Admission {
		return &apiserver.Admission{Ownership: o, Webhooks: []apiserver.Webhook{
			{Configuration: "ValidatingWebhookConfiguration/cm", Name: key.Name, Type: "validating", Rules: rules, TimeoutSeconds: 10, FailurePolicy: "Fail"},
			{Configuration: "ValidatingWebhookConfiguration/fast", Name: fastKey.Name, Type: "validating", Rules: rules, TimeoutSeconds: 10, FailurePolicy: "Fail"},
		}}
	}
	api := func(v *apiserver.Admission) Target {
		return Target{ID: "kube-apiserver", Kind: KubeAPIServer, Window: 15 * time.Second, Admission: v,
			Prev: &health.Snapshot{Admission: map[health.AdmissionKey]*health.AdmissionWebhook{key: {Latency: webhookCalls(0, 1)}, fastKey: {Latency: webhookCalls(0, 0.01)}}},
			Cur:  &health.Snapshot{Admission: map[health.AdmissionKey]*health.AdmissionWebhook{key: {Latency: webhookCalls(20, 1)}, fastKey: {Latency: webhookCalls(50, 0.01)}}}}
	}
	if got := WebhooksToProbe(api(view(nil)), DefaultThresholds()); len(got) != 1 || got[0].Name != key.Name {
		t.Errorf("webhooks to probe %+v, want only %s (the fast one is never probed for)", got, key.Name)
	}
	workloads := &objects.View{Kinds: []objects.Summary{{Kind: objects.Kind{Group: "demo.ctrldiag.dev", Version: "v1alpha1", Kind: "Workload", Resource: "workloads", Namespaced: true},
		Controllers: []string{"ops/op:8080 workload"}, Namespace: "ops"}}}
	op := func(v *apiserver.Admission) Target {
		return Target{ID: "ops/op:8080", Kind: ControllerRuntime, Cur: &health.Snapshot{}, Prev: &health.Snapshot{}, Window: 15 * time.Second,
			Objects: workloads, Admission: v, Queues: []health.QueueStats{{Queue: "workload", Controller: "workload", AddsPerSecond: 2, WorkP99: 1.2, Longest: 1}}}
	}
	ties := func(v *apiserver.Admission) []Finding {
		var out []Finding
		for _, f := range withWebhookCauses(nil, []Target{api(v), op(v)}, DefaultThresholds()) {
			if f.Check == "webhook-slows-writes" {
				out = append(out, f)
			}
		}
		return out
	}
	if got := ties(view(nil)); len(got) != 0 {
		t.Errorf("without the probe the operator's writes are its workloads only, yet: %+v", got)
	}
	other := &apiserver.Ownership{Owned: []apiserver.Owned{{Controller: "ops/other:8080 thing", Resource: "configmaps", Namespaced: true, OwnedBy: "ownerReferences", OwnerKind: "Thing", Objects: 3, Listed: 9, Namespace: "ops"}}}
	if got := ties(view(other)); len(got) != 0 {
		t.Errorf("ConfigMaps owned by another controller tie this one: %+v", got)
	}
	owned := &apiserver.Ownership{Owned: []apiserver.Owned{{Controller: "ops/op:8080 workload", Resource: "configmaps", Namespaced: true, OwnedBy: "ownerReferences", OwnerKind: "Workload", Objects: 12, Listed: 14, Namespace: "ops"}}}
	got := ties(view(owned))
	if len(got) != 1 || got[0].Queue != "workload" || got[0].Code != "CD220" || !strings.Contains(got[0].Summary, "workload's CREATE configmaps wait in admission webhook slow-cm.example.com") {
		t.Fatalf("ties %+v, want one CD220 on workload naming CREATE configmaps", got)
	}
	ev := map[string]string{}
	for _, e := range got[0].Evidence {
		ev[e.Name] = e.Value
	}
	if ev["owned kind"] != "configmaps (from ownerReferences): 12 of 14 objects listed in namespace ops are controlled by a Workload" ||
		ev["timeout and failure policy"] != "timeoutSeconds 10, failurePolicy Fail" {
		t.Errorf("evidence %v", ev)
	}
}
