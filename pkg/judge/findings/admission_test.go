package findings

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/apiserver"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// webhookCalls is a latency histogram of n calls of d seconds each, in the API server's
// admission buckets.
func webhookCalls(n, d float64) *health.Histogram {
	h := &health.Histogram{Count: n, Sum: n * d}
	for _, ub := range []float64{0.005, 0.025, 0.1, 0.5, 1, 2.5, 10, 25, math.Inf(1)} {
		c := 0.0
		if d <= ub {
			c = n
		}
		h.Buckets = append(h.Buckets, health.Bucket{UpperBound: ub, Count: c})
	}
	return h
}

func TestWebhookSlowsWrites(t *testing.T) {
	key := health.AdmissionKey{Name: "slow-pods.example.com", Type: "validating", Operation: "CREATE"}
	view := &apiserver.Admission{Webhooks: []apiserver.Webhook{{Configuration: "ValidatingWebhookConfiguration/slow", Name: key.Name, Type: "validating",
		Rules:          []apiserver.Rule{{Operations: []string{"CREATE"}, APIGroups: []string{""}, Resources: []string{"pods"}, Scope: "Namespaced"}},
		TimeoutSeconds: 10, FailurePolicy: "Fail", NamespaceSelector: "kubernetes.io/metadata.name=team-a"}}}
	api := func(calls, seconds float64) Target {
		return Target{ID: "kube-apiserver", Kind: KubeAPIServer, Window: 12 * time.Second, Admission: view,
			Prev: &health.Snapshot{Admission: map[health.AdmissionKey]*health.AdmissionWebhook{key: {Latency: webhookCalls(10, seconds)}}},
			Cur:  &health.Snapshot{Admission: map[health.AdmissionKey]*health.AdmissionWebhook{key: {Latency: webhookCalls(10+calls, seconds)}}}}
	}
	kcm := Target{ID: "kube-system/kcm", Kind: KubeControllerManager, Cur: &health.Snapshot{}, Prev: &health.Snapshot{}, Window: 12 * time.Second,
		Queues: []health.QueueStats{
			{Queue: "replicaset", AddsPerSecond: 3, WorkP99: 8, Longest: 6},
			{Queue: "deployment", AddsPerSecond: 3, WorkP99: 4, Longest: 3}, // writes ReplicaSets, not pods
			{Queue: "job", AddsPerSecond: 1, WorkP99: 0.05, Longest: 0.01},  // creates pods, but fast: not slowed
		}}
	symptoms := []Finding{
		newFinding("workers-saturated", KubeControllerManager, kcm.ID, "replicaset", "all workers busy"),
		newFinding("under-provisioned", KubeControllerManager, kcm.ID, "replicaset", "needs 9 workers"),
		newFinding("queue-wait-slo", KubeControllerManager, kcm.ID, "replicaset", "3% of waits over 1s"),
		newFinding("workers-saturated", KubeControllerManager, kcm.ID, "deployment", "all workers busy"),
	}

	got := withWebhookCauses(append([]Finding(nil), symptoms...), []Target{api(60, 2), kcm}, DefaultThresholds())
	var ties []Finding
	for _, f := range got {
		switch {
		case f.Check == "webhook-slows-writes":
			ties = append(ties, f)
		case f.Check == "under-provisioned":
			t.Errorf("under-provisioned kept on a queue a slow webhook holds back: %s", f.Summary)
		case f.Queue == "replicaset" && !strings.HasPrefix(f.Recommendation, "Fix admission webhook slow-pods.example.com (ValidatingWebhookConfiguration/slow) first"):
			t.Errorf("%s on replicaset does not lead with the webhook: %s", f.Check, f.Recommendation)
		case f.Queue == "deployment" && strings.Contains(f.Recommendation, "webhook"):
			t.Errorf("the deployment controller writes no pods, yet its advice names the webhook: %s", f.Recommendation)
		}
	}
	if len(ties) != 1 || ties[0].Queue != "replicaset" || ties[0].Code != "CD220" {
		t.Fatalf("ties %+v, want one CD220 on replicaset", ties)
	}
	want := "replicaset's CREATE pods wait in admission webhook slow-pods.example.com (ValidatingWebhookConfiguration/slow): p90 2.35s, mean 2s over 60 calls in the last 12s"
	if ties[0].Summary != want {
		t.Errorf("summary\n%s\nwant\n%s", ties[0].Summary, want)
	}
	ev := map[string]string{}
	for _, e := range ties[0].Evidence {
		ev[e.Name] = e.Value
	}
	if ev["timeout and failure policy"] != "timeoutSeconds 10, failurePolicy Fail" || !strings.HasPrefix(ev["selectors"], "namespaceSelector kubernetes.io/metadata.name=team-a") {
		t.Errorf("evidence %v", ev)
	}

	// A fast webhook, too few calls, or no configuration read: nothing is tied and the
	// findings are left as they were.
	noView := api(60, 2)
	noView.Admission = nil
	for name, apiserver := range map[string]Target{"fast": api(60, 0.05), "few calls": api(3, 2), "no configurations": noView} {
		got := withWebhookCauses(append([]Finding(nil), symptoms...), []Target{apiserver, kcm}, DefaultThresholds())
		if len(got) != len(symptoms) {
			t.Errorf("%s: %d findings, want the %d symptoms unchanged", name, len(got), len(symptoms))
		}
		for i := range got {
			if got[i].Recommendation != symptoms[i].Recommendation {
				t.Errorf("%s: %s's advice changed: %s", name, got[i].Check, got[i].Recommendation)
			}
		}
	}
}

// The API server's side of webhook-latency: every slow webhook it calls, tied to a
// controller or not, with its configuration when read; a fast one is not named.
func TestWebhookLatencyOnTheAPIServer(t *testing.T) {
	slow := health.AdmissionKey{Name: "slow.example.com", Type: "admit", Operation: "UPDATE"}
	fast := health.AdmissionKey{Name: "fast.example.com", Type: "validating", Operation: "CREATE"}
	view := &apiserver.Admission{Webhooks: []apiserver.Webhook{{Configuration: "MutatingWebhookConfiguration/m", Name: slow.Name, Type: "admit",
		TimeoutSeconds: 5, FailurePolicy: "Ignore"}}}
	api := Target{ID: "apiserver", Kind: KubeAPIServer, Window: 10 * time.Second, Admission: view,
		Prev: &health.Snapshot{Admission: map[health.AdmissionKey]*health.AdmissionWebhook{
			slow: {Latency: webhookCalls(5, 3), Rejections: map[string]float64{"calling_webhook_error": 1}}}},
		Cur: &health.Snapshot{Admission: map[health.AdmissionKey]*health.AdmissionWebhook{
			slow: {Latency: webhookCalls(45, 3), Rejections: map[string]float64{"calling_webhook_error": 4}},
			fast: {Latency: webhookCalls(100, 0.01)}}}}
	got := webhookLatency(api, DefaultThresholds())
	if len(got) != 1 {
		t.Fatalf("findings %+v, want one about %s", got, slow.Name)
	}
	f := got[0]
	if f.Code != "CD216" || f.Queue != "slow.example.com UPDATE" ||
		f.Summary != "the API server waits 6.5s (p90) on mutating webhook slow.example.com for UPDATE requests in the last 10s" {
		t.Errorf("finding %s %q: %s", f.Code, f.Queue, f.Summary)
	}
	ev := map[string]string{}
	for _, e := range f.Evidence {
		ev[e.Name] = e.Value
	}
	if ev["calls"] != "40" || ev["rejected or failed"] != "calling_webhook_error: 3" ||
		ev["configuration"] != "MutatingWebhookConfiguration/m, timeoutSeconds 5, failurePolicy Ignore" {
		t.Errorf("evidence %v", ev)
	}
}
