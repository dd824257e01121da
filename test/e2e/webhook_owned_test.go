//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// interceptWrites registers hook as the validating webhook (named webhook, in configuration
// config, failurePolicy Fail) of every CREATE and UPDATE of resource (core group) in ns, and
// waits until the API server calls it with a dry-run `kubectl create create...`.
func interceptWrites(t *testing.T, ns, config, webhook, resource string, hook slowWebhook, create ...string) {
	t.Helper()
	intercept(t, ns, config, webhook, hook, interception{resource: resource, operations: `"CREATE", "UPDATE"`, policy: "Fail",
		probe: append([]string{"create"}, create...)})
}

// The reference operator's Workload controller creates child ConfigMaps (controller
// ownerReference to their Workload) behind a validating webhook that holds every ConfigMap
// CREATE and UPDATE in its namespace 1s. Only its Workloads were known to be its writes: the
// owner-reference probe finds the ConfigMaps it owns, so report (live, and from a snapshot)
// names the webhook on the operator's workload queue (webhook-slows-writes) with the owned
// kind and where it came from, its timeout and failurePolicy. The control: an equally slow
// webhook on Secrets, which the test itself creates there and the operator does not own, is
// slow on the API server (webhook-latency) but tied to no controller.
// Runs alone: its 1s webhooks show in the API server's (cluster-wide) admission metrics, which
// every report with the API server in scope reads and ties to any controller writing ConfigMaps or
// Secrets (selectors are not evaluated); others' slow webhooks could likewise lead its workload
// queue's advice.
func TestReportTiesAWebhookOnTheKindsAnOperatorOwns(t *testing.T) {
	ns := newNamespace(t)
	cmHook, secretHook := startSlowWebhook(t, time.Second), startSlowWebhook(t, time.Second)
	cmConfig, secretConfig := "ctrldiag-e2e-slow-cm-"+ns, "ctrldiag-e2e-slow-secrets-"+ns
	const cmName, secretName = "slow-configmaps.e2e.ctrldiag.dev", "slow-secrets.e2e.ctrldiag.dev"
	interceptWrites(t, ns, cmConfig, cmName, "configmaps", cmHook, "configmap", "probe")
	interceptWrites(t, ns, secretConfig, secretName, "secrets", secretHook, "secret", "generic", "probe")

	// The throttled scenario without its client limits: 20 Workloads of 3 children, two of
	// them flipping to 4 children and back every second, so about one child ConfigMap is
	// created a second, each waiting 1s in the webhook.
	p := startBehindPod(t, podSpec{Namespace: ns, Name: "operator-owned-children", Labels: map[string]string{"app": "ctrldiag-demo"},
		MemoryLimit: "150Mi", Ports: []podPort{{Name: "http-metrics", Port: 8080}},
		Command: func(listen map[int32]string) []string {
			return []string{filepath.Join(env.binDir, "kubectl-ctrldiag"), "operator", "run", "-n", ns, "--scenario", "throttled",
				"--qps", "200", "--burst", "400", "--workers", "4", "--metrics-bind-address", listen[8080], "--health-probe-bind-address", "0"}
		}})
	eventually(t, time.Minute, "the Workloads' child ConfigMaps", func() error {
		r := kubectl(t, "-n", ns, "get", "configmaps", "-l", "demo.ctrldiag.dev/workload", "-o", "name")
		if n := strings.Count(r.Stdout, "configmap/"); n < 20 {
			return fmt.Errorf("%d child ConfigMaps", n)
		}
		return nil
	})

	// Secrets created one after the other, each 1s in the control webhook, while the reports read.
	stop := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			kubectl(t, "-n", ns, "create", "secret", "generic", fmt.Sprintf("load-%d", i), "--from-literal=k=v")
		}
	}()
	defer func() { close(stop); <-stopped }()

	file := filepath.Join(t.TempDir(), "owned.tar.gz")
	if r := ctrldiag(t, "snapshot", "-n", ns, "--interval", "20s", "-f", file); r.Code != 0 {
		t.Fatalf("snapshot:\n%s", r)
	}
	t.Logf("webhook calls: configmaps %d, secrets %d", cmHook.calls.Load(), secretHook.calls.Load())
	// The snapshot keeps the probe's answer, with where each owned kind came from.
	var kept bool
	for name, b := range snapshotMembers(t, file) {
		if bytes.Contains(b, []byte(`"ownedBy": "ownerReferences"`)) || bytes.Contains(b, []byte(`"ownedBy":"ownerReferences"`)) {
			kept = true
			if bytes.Contains(b, []byte(`"resource": "secrets"`)) || bytes.Contains(b, []byte(`"resource":"secrets"`)) {
				t.Errorf("snapshot member %s holds Secrets as an owned kind", name)
			}
		}
	}
	if !kept {
		t.Errorf("the snapshot holds no owned kind found from ownerReferences")
	}
	live, r := reportJSON(t, "-n", ns, "--interval", "20s")
	if r.Code != 0 {
		t.Fatalf("report:\n%s", r)
	}
	checkOwnedTie(t, "live", live, ns, p.Name+":8080", cmName, cmConfig, secretName)
	if text := ctrldiag(t, "report", "--from-snapshot", file); testing.Verbose() {
		t.Logf("report --from-snapshot:\n%s", text.Stdout)
	}
	replayed, r := reportJSON(t, "--from-snapshot", file)
	if r.Code != 0 {
		t.Fatalf("report --from-snapshot:\n%s", r)
	}
	checkOwnedTie(t, "snapshot", replayed, ns, p.Name+":8080", cmName, cmConfig, secretName)

	// A reader who may not list ConfigMaps: the probe is refused by the access review, the
	// report still comes, a warning names the permission, and nothing is tied.
	reader := restrictedReader(t, "owned-reader", "")
	var restricted reportDoc
	eventually(t, 20*time.Second, "the reader's ClusterRoleBinding to take effect", func() error {
		r = runAs(t, reader, "kubectl", "ctrldiag", "report", "-n", ns, "--interval", "20s", "-o", "json")
		if r.Code != 0 {
			return fmt.Errorf("%s", r)
		}
		return json.Unmarshal([]byte(r.Stdout), &restricted)
	})
	if want := "may not list configmaps in namespace " + ns + " to find the kinds controllers own: needs RBAC verb list on configmaps"; !strings.Contains(r.Stderr, want) {
		t.Errorf("the reader's report does not say %q:\n%s", want, r.Stderr)
	}
	for _, f := range restricted.Findings {
		if f.Check == "webhook-slows-writes" {
			t.Errorf("the reader may not list ConfigMaps, yet %s %s is tied: %s", f.Target, f.Queue, f.Summary)
		}
	}
}

// checkOwnedTie checks that report d ties the ConfigMap webhook to the operator's workload
// queue through the ConfigMaps it owns, and ties the Secret webhook to nothing though it is
// slow.
func checkOwnedTie(t *testing.T, how string, d reportDoc, ns, pod, cmName, cmConfig, secretName string) {
	t.Helper()
	t.Logf("%s findings: %s", how, d.checks())
	var tied, secretsSlow bool
	for _, f := range d.Findings {
		switch {
		case f.Check == "webhook-latency" && f.Queue == secretName+" CREATE":
			secretsSlow = true
		case f.Check == "webhook-slows-writes" && strings.Contains(f.Summary, secretName):
			t.Errorf("%s: the Secrets webhook is tied to %s %s, which owns no Secret: %s", how, f.Target, f.Queue, f.Summary)
		case f.Check == "webhook-slows-writes" && f.Queue == "workload" && f.Target == ns+"/"+pod:
			ev := map[string]string{}
			for _, e := range f.Evidence {
				ev[e.Name] = e.Value
			}
			if !strings.Contains(f.Summary, cmName) {
				continue // UPDATE and CREATE are two ties; either names the webhook
			}
			tied = true
			if f.Code != "CD220" || ev["webhook"] != cmName+" in ValidatingWebhookConfiguration/"+cmConfig ||
				!strings.Contains(ev["intercepted writes"], "configmaps") || ev["timeout and failure policy"] != "timeoutSeconds 10, failurePolicy Fail" ||
				!strings.HasPrefix(ev["owned kind"], "configmaps (from ownerReferences): ") ||
				!strings.HasSuffix(ev["owned kind"], " objects listed in namespace "+ns+" are controlled by a Workload") {
				t.Errorf("%s: the tie does not name the webhook and the owned kind: %s\n%v", how, f.Summary, ev)
			}
		case f.Check == "webhook-slows-writes":
			t.Errorf("%s: webhook-slows-writes on %s %s: %s", how, f.Target, f.Queue, f.Summary)
		case f.Check == "under-provisioned" && f.Queue == "workload":
			t.Errorf("%s: under-provisioned on a queue a slow webhook holds back: %s", how, f.Summary)
		case symptomOfWebhook[f.Check] && f.Queue == "workload" && !strings.HasPrefix(f.Recommendation, "Fix admission webhook "+cmName):
			t.Errorf("%s: %s on the workload queue does not lead with the webhook: %s", how, f.Check, f.Recommendation)
		}
	}
	if !secretsSlow {
		t.Errorf("%s: the control webhook on Secrets was not slow on the API server, so it controls nothing; findings: %s", how, d.checks())
	}
	if !tied {
		t.Errorf("%s: no webhook-slows-writes naming %s on the operator's workload queue; findings: %s", how, cmName, d.checks())
	}
}

// symptomOfWebhook are the checks whose advice leads with a webhook that slows the queue.
var symptomOfWebhook = map[string]bool{"workers-saturated": true, "slow-reconcile": true, "reconcile-timeouts": true,
	"backlog-growing": true, "backlog-high": true, "stuck-worker": true, "queue-wait-slo": true}
