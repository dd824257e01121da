package findings

import (
	"fmt"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/apiserver"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// webhookFleet is an API server whose calls to hooks webhooks were all slow, each
// intercepting every write, and a kube-controller-manager with queues busy queues that
// reconcile a kind.
func webhookFleet(queues, hooks int) (api, kcm Target) {
	view := &apiserver.Admission{}
	prev := map[health.AdmissionKey]*health.AdmissionWebhook{}
	cur := map[health.AdmissionKey]*health.AdmissionWebhook{}
	for i := range hooks {
		k := health.AdmissionKey{Name: fmt.Sprintf("hook-%02d.example.com", i), Type: "validating", Operation: "UPDATE"}
		view.Webhooks = append(view.Webhooks, apiserver.Webhook{Configuration: "ValidatingWebhookConfiguration/all", Name: k.Name, Type: "validating",
			Rules: []apiserver.Rule{{Operations: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}, Scope: "*"}}, TimeoutSeconds: 10, FailurePolicy: "Fail"})
		prev[k] = &health.AdmissionWebhook{Latency: webhookCalls(10, 2)}
		cur[k] = &health.AdmissionWebhook{Latency: webhookCalls(70, 2)}
	}
	api = Target{ID: "kube-apiserver", Kind: KubeAPIServer, Window: 12 * time.Second, Admission: view,
		Prev: &health.Snapshot{Admission: prev}, Cur: &health.Snapshot{Admission: cur}}
	kcm = Target{ID: "kube-system/kcm", Kind: KubeControllerManager, Cur: &health.Snapshot{}, Prev: &health.Snapshot{}, Window: 12 * time.Second}
	widgets := objects.Summary{Kind: objects.Kind{Group: "demo.example.com", Resource: "widgets", Namespaced: true}}
	for i := range queues {
		q := fmt.Sprintf("widget-%02d", i)
		kcm.Queues = append(kcm.Queues, health.QueueStats{Queue: q, AddsPerSecond: 3, WorkP99: 8, Longest: 6})
		widgets.Controllers = append(widgets.Controllers, kcm.ID+" "+q)
	}
	kcm.Objects = &objects.View{Kinds: []objects.Summary{widgets}}
	return api, kcm
}

// Many slow webhooks that all intercept the writes of many queues make at most
// maxWebhookTies findings per queue, not one per queue and webhook pair; the last one kept
// says exactly how many more webhooks there are.
func TestWebhookTiesAreBoundedPerQueue(t *testing.T) {
	const queues, hooks = 40, 30
	api, kcm := webhookFleet(queues, hooks)
	got := withWebhookCauses(nil, []Target{api, kcm}, DefaultThresholds())
	perQueue := map[string][]Finding{}
	for _, f := range got {
		if f.Check == "webhook-slows-writes" {
			perQueue[f.Queue] = append(perQueue[f.Queue], f)
		}
	}
	if len(got) != queues*maxWebhookTies || len(perQueue) != queues {
		t.Fatalf("%d findings over %d queues, want %d on each of the %d queues", len(got), len(perQueue), maxWebhookTies, queues)
	}
	want := fmt.Sprintf("and %d more, not shown", hooks-maxWebhookTies)
	for q, fs := range perQueue {
		last := fs[len(fs)-1].Evidence
		if e := last[len(last)-1]; e.Name != "other slow webhooks on these writes" || e.Value != want {
			t.Errorf("%s: the last tie ends with %+v, want %q", q, e, want)
		}
		for _, f := range fs[:len(fs)-1] {
			if e := f.Evidence[len(f.Evidence)-1]; e.Name == "other slow webhooks on these writes" {
				t.Errorf("%s: a tie before the last says %q", q, e.Value)
			}
		}
	}
}

// BenchmarkWebhookTies ties 300 busy queues to 300 slow webhooks that intercept all their writes.
func BenchmarkWebhookTies(b *testing.B) {
	api, kcm := webhookFleet(300, 300)
	b.ReportAllocs()
	for range b.N {
		withWebhookCauses(nil, []Target{api, kcm}, DefaultThresholds())
	}
}
