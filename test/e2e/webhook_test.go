//go:build e2e

package e2e

import (
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// slowWebhook is an admission webhook served over TLS on loopback (the API server runs on
// this host) that allows every request after delay.
type slowWebhook struct {
	url, caBundle string
	calls         *atomic.Int64
}

// interceptPodCreates registers hook as the validating webhook (named webhook, in the
// configuration config, with failurePolicy policy) of every pod created in ns, and waits until
// the API server calls it.
func interceptPodCreates(t *testing.T, ns, config, webhook, policy string, hook slowWebhook) {
	t.Helper()
	intercept(t, ns, config, webhook, hook, interception{resource: "pods", operations: `"CREATE"`, policy: policy,
		probe: []string{"run", "probe", "--image=registry.k8s.io/pause:3.10"}})
}

// interception is what a test webhook intercepts: the operations on a core resource, with its
// failure policy, and the kubectl command whose server-side dry run it sees.
type interception struct {
	resource, operations, policy string
	probe                        []string
}

// intercept registers hook as the validating webhook (named webhook, in the configuration
// config, timeout 10s) of i's writes in ns, and waits until the API server calls it for the
// dry run of i.probe. The configuration is deleted before the server stops (cleanups run
// last first), so no write waits on a webhook that is gone.
func intercept(t *testing.T, ns, config, webhook string, hook slowWebhook, i interception) {
	t.Helper()
	apply(t, fmt.Sprintf(`apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: %s
webhooks:
  - name: %s
    clientConfig:
      url: %s
      caBundle: %s
    rules:
      - apiGroups: [""]
        apiVersions: ["v1"]
        operations: [%s]
        resources: ["%s"]
        scope: Namespaced
    namespaceSelector:
      matchLabels:
        kubernetes.io/metadata.name: %s
    failurePolicy: %s
    timeoutSeconds: 10
    sideEffects: None
    admissionReviewVersions: ["v1"]
`, config, webhook, hook.url, hook.caBundle, i.operations, i.resource, ns, i.policy))
	t.Cleanup(func() { kubectl(t, "delete", "validatingwebhookconfiguration", config, "--wait=false") })
	eventually(t, time.Minute, "webhook "+webhook+" to be called", func() error {
		kubectl(t, append(append([]string{"-n", ns}, i.probe...), "--dry-run=server")...)
		if hook.calls.Load() == 0 {
			return fmt.Errorf("no call yet")
		}
		return nil
	})
}

func startSlowWebhook(t *testing.T, delay time.Duration) slowWebhook {
	t.Helper()
	calls := &atomic.Int64{}
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var review struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Request    struct {
				UID string `json:"uid"`
			} `json:"request"`
		}
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<20)).Decode(&review); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		calls.Add(1)
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"apiVersion": review.APIVersion, "kind": review.Kind,
			"response": map[string]any{"uid": review.Request.UID, "allowed": true}})
	}))
	t.Cleanup(srv.Close)
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	return slowWebhook{url: srv.URL + "/validate", caBundle: base64.StdEncoding.EncodeToString(ca), calls: calls}
}

// A validating webhook that answers every pod CREATE in one namespace after 2s, under
// kube-controller-manager's ReplicaSet load there: the report read from a snapshot names it on
// the replicaset queue (webhook-slows-writes) with its configuration and policy, leads the
// queue's other findings with it and raises no under-provisioned for it; the deployment
// controller, whose writes are ReplicaSets, is not blamed on it; on the API server the webhook
// is slow (webhook-latency) with its configuration; and kube-controller-manager is told the
// API server is slow for POST pods, with its p99 (request-latency), and for nothing else.
// Read in the same window with a token allowed /debug/pprof, kube-controller-manager's
// goroutine dump shows where its replicaset workers wait.
// Runs alone: asserts kube-controller-manager-wide figures (request-latency for POST pods and
// nothing else, no other webhook tie on its queues, its goroutine dump), and its 2s pod webhook
// shows in the API server's cluster-wide admission metrics.
func TestReportNamesASlowWebhook(t *testing.T) {
	ns := newNamespace(t)
	hook := startSlowWebhook(t, 2*time.Second)
	config := "ctrldiag-e2e-slow-pods-" + ns
	interceptPodCreates(t, ns, config, "slow-pods.e2e.ctrldiag.dev", "Fail", hook)

	file := filepath.Join(t.TempDir(), "webhook.tar.gz")
	done := make(chan Result, 1)
	go func() { done <- ctrldiag(t, "snapshot", "-n", "kube-system", "--interval", "15s", "-f", file) }()
	// The same window read with a token allowed /debug/pprof: kube-controller-manager's own
	// goroutine dump, through a port-forward.
	pprofReader(t, ns)
	dumped := make(chan Result, 1)
	go func() {
		dumped <- ctrldiag(t, "report", "-n", "kube-system", "-o", "json", "--interval", "15s", "--include-apiserver=false",
			"--token-from-sa", ns+"/pprof-reader", "--insecure-skip-tls-verify-metrics", "pod/kube-controller-manager-ctrldiag-node")
	}()
	time.Sleep(2 * time.Second)
	var deployments strings.Builder
	for i := range 15 {
		fmt.Fprintf(&deployments, `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: load-%d, namespace: %s}
spec:
  replicas: 10
  selector: {matchLabels: {app: load-%d}}
  template:
    metadata: {labels: {app: load-%d}}
    spec:
      containers: [{name: pause, image: registry.k8s.io/pause:3.10}]
`, i, ns, i, i)
	}
	apply(t, deployments.String())
	if r := <-done; r.Code != 0 {
		t.Fatalf("snapshot:\n%s", r)
	}
	t.Logf("webhook calls: %d", hook.calls.Load())

	if text := ctrldiag(t, "report", "--from-snapshot", file); testing.Verbose() {
		t.Logf("report:\n%s", text.Stdout)
	}
	d, r := reportJSON(t, "--from-snapshot", file)
	if r.Code != 0 {
		t.Fatalf("report --from-snapshot:\n%s", r)
	}
	var tied, seen, slowPOST bool
	for _, f := range d.Findings {
		switch {
		case f.Check == "request-latency" && f.Target == kcmTarget:
			slowPOST = true
			checkSlowPOSTPods(t, f.Code, f.Summary, f.Evidence)
		case f.Check == "request-latency":
			t.Errorf("request-latency on %s, which the webhook does not slow: %s", f.Target, f.Summary)
		case f.Check == "webhook-latency" && f.Queue == "slow-pods.e2e.ctrldiag.dev CREATE":
			seen = true
			if !strings.Contains(f.Summary, "the API server waits") || f.Evidence[len(f.Evidence)-1].Value != "ValidatingWebhookConfiguration/"+config+", timeoutSeconds 10, failurePolicy Fail" {
				t.Errorf("webhook-latency on the API server: %s %+v", f.Summary, f.Evidence)
			}
		case f.Check == "webhook-slows-writes" && f.Queue == "replicaset":
			tied = true
			ev := map[string]string{}
			for _, e := range f.Evidence {
				ev[e.Name] = e.Value
			}
			if f.Code != "CD220" || ev["webhook"] != "slow-pods.e2e.ctrldiag.dev in ValidatingWebhookConfiguration/"+config ||
				ev["intercepted writes"] != "CREATE pods" || ev["timeout and failure policy"] != "timeoutSeconds 10, failurePolicy Fail" ||
				!strings.Contains(f.Summary, "slow-pods.e2e.ctrldiag.dev") {
				t.Errorf("the tie does not name the webhook as configured: %s\n%v", f.Summary, ev)
			}
		case f.Check == "webhook-slows-writes":
			t.Errorf("webhook-slows-writes on queue %s, which creates no pods: %s", f.Queue, f.Summary)
		case f.Queue == "replicaset" && f.Check == "under-provisioned":
			t.Errorf("under-provisioned on a queue a slow webhook holds back: %s", f.Summary)
		case f.Queue == "replicaset" && f.Severity != "info" && !strings.HasPrefix(f.Recommendation, "Fix admission webhook slow-pods.e2e.ctrldiag.dev"):
			t.Errorf("%s on replicaset does not lead with the webhook: %s", f.Check, f.Recommendation)
		case f.Queue == "deployment" && strings.Contains(f.Recommendation, "slow-pods"):
			t.Errorf("%s on deployment is blamed on the pod webhook: %s", f.Check, f.Recommendation)
		}
	}
	t.Logf("findings: %s", d.checks())
	checkKCMDump(t, <-dumped)
	if !seen {
		t.Errorf("no webhook-latency on the API server for the webhook's CREATEs; findings: %s", d.checks())
	}
	if !slowPOST {
		t.Errorf("no request-latency on kube-controller-manager naming POST pods; findings: %s", d.checks())
	}
	if !tied {
		t.Fatalf("no webhook-slows-writes on kube-controller-manager's replicaset queue; findings: %s", d.checks())
	}
}

// slowPOSTPods is request-latency's name of the API server's POST pods and their p99, as the
// finding's evidence lists it ("POST pods (p99 2.1s over 40)").
var slowPOSTPods = regexp.MustCompile(`^POST pods \(p99 (>= )?([0-9.a-zµ]+) over ([0-9]+)\)$`)

// checkSlowPOSTPods checks kube-controller-manager's request-latency under a webhook that holds
// every pod CREATE 2s: the API server is slow for POST pods and for nothing else the
// controller uses, with a p99 of at least the webhook's 2s, and the controller's own client
// (rest_client_request_duration_seconds) saw its POSTs as slow.
func checkSlowPOSTPods(t *testing.T, code, summary string, evidence []struct{ Name, Value, Threshold string }) {
	t.Helper()
	ev := map[string]string{}
	for _, e := range evidence {
		ev[e.Name] = e.Value
	}
	t.Logf("%s request-latency: %s %v", code, summary, ev)
	slowest := ev["slowest on apiserver"]
	m := slowPOSTPods.FindStringSubmatch(slowest)
	if code != "CD222" || m == nil || !strings.Contains(summary, "the API server is slow for "+slowest) {
		t.Errorf("request-latency does not name POST pods alone with its p99: %s\n%v", summary, ev)
		return
	}
	if p99, err := seconds(m[2]); err != nil || p99 < 2 {
		t.Errorf("POST pods p99 %q (%v): the webhook holds each create 2s", m[2], err)
	}
	client := regexp.MustCompile(`\bPOST p99 (>= )?([0-9.a-zµ]+)`).FindStringSubmatch(ev["the controller's client"])
	if client == nil {
		t.Errorf("request-latency does not give the controller's own POST p99: %v", ev)
	} else if p99, err := seconds(client[2]); err != nil || p99 < 1 {
		t.Errorf("the controller's client POST p99 %q (%v), under the API server's", client[2], err)
	}
}

// The reference operator's slow-webhook scenario: its own webhook, registered for its status
// updates, answers after 1s. With the API server in scope the
// report's top finding is webhook-slows-writes on the operator's controller, naming the
// scenario's webhook; the configuration is gone once the operator stops.
// Runs alone: its top finding is taken over a report that includes the API server, which others'
// load and slow webhooks would change, and its 1s webhook shows in the API server's cluster-wide
// admission metrics.
func TestReportDiagnosesTheSlowWebhookScenario(t *testing.T) {
	ns := newNamespace(t)
	p := startBehindPod(t, podSpec{Namespace: ns, Name: "operator-slow-webhook", Labels: map[string]string{"app": "ctrldiag-demo"},
		MemoryLimit: "150Mi", Ports: []podPort{{Name: "http-metrics", Port: 8080}, {Name: "webhook", Port: 9443}},
		Command: func(listen map[int32]string) []string {
			return []string{filepath.Join(env.binDir, "kubectl-ctrldiag"), "operator", "run", "-n", ns, "--scenario", "slow-webhook",
				"--metrics-bind-address", listen[8080], "--webhook-bind-address", listen[9443], "--health-probe-bind-address", "0"}
		}})
	config := "ctrldiag-slow-webhook-" + ns
	eventually(t, 30*time.Second, "the scenario's webhook configuration", func() error {
		if r := kubectl(t, "get", "validatingwebhookconfiguration", config); r.Code != 0 {
			return fmt.Errorf("%s", r.Stderr)
		}
		return nil
	})
	time.Sleep(15 * time.Second)
	d, r := reportJSON(t, "-n", ns)
	if r.Code != 0 {
		t.Fatalf("report:\n%s", r)
	}
	t.Logf("findings: %s", d.checks())
	top := ""
	for _, f := range d.Findings {
		if f.Severity != "info" {
			top = f.Check
			if f.Check == "webhook-slows-writes" && (f.Target != ns+"/"+p.Name+":8080" || !strings.Contains(f.Summary, "slow.demo.ctrldiag.dev") ||
				!strings.Contains(f.Summary, "ValidatingWebhookConfiguration/"+config)) {
				t.Errorf("the tie does not name the operator and its webhook: %s %s", f.Target, f.Summary)
			}
			break
		}
	}
	if top != "webhook-slows-writes" {
		t.Errorf("top finding %q, want webhook-slows-writes (all: %s)", top, d.checks())
	}
	for _, dis := range d.disagreements() {
		t.Errorf("section 2 and the findings disagree: %s", dis)
	}
	if err := p.Stop(t); err != nil {
		t.Errorf("operator stop: %v", err)
	}
	if r := kubectl(t, "get", "validatingwebhookconfiguration", config); r.Code == 0 {
		t.Errorf("the scenario's webhook configuration outlived the operator")
	}
}

// pprofReader makes ServiceAccount ns/pprof-reader, which may get /metrics and /debug/pprof of
// the components that authorize through the API server; the binding goes with the test.
func pprofReader(t *testing.T, ns string) {
	t.Helper()
	name := "ctrldiag-e2e-pprof-" + ns
	apply(t, fmt.Sprintf(`apiVersion: v1
kind: ServiceAccount
metadata: {name: pprof-reader, namespace: %[1]s}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: %[2]s}
rules: [{nonResourceURLs: ["/metrics", "/debug/pprof", "/debug/pprof/*"], verbs: ["get"]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: %[2]s}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: %[2]s}
subjects: [{kind: ServiceAccount, name: pprof-reader, namespace: %[1]s}]
`, ns, name))
	t.Cleanup(func() {
		mustKubectl(t, "delete", "clusterrolebinding,clusterrole", name, "--ignore-not-found")
	})
}

// checkKCMDump checks the report of kube-controller-manager's ReplicaSet load behind a slow
// webhook, read with a token allowed /debug/pprof: its goroutine dump was read and groups its
// replicaset workers where they wait (sync.(*WaitGroup).Wait in slowStartBatch, for the pod
// creates the webhook holds), with a frame of kube-controller-manager's own code.
func checkKCMDump(t *testing.T, r Result) {
	t.Helper()
	if r.Code != 0 {
		t.Fatalf("report with --token-from-sa:\n%s", r)
	}
	var g goroutineDoc
	if err := json.Unmarshal([]byte(r.Stdout), &g); err != nil {
		t.Fatal(err)
	}
	read := false
	for _, x := range g.Goroutines {
		t.Logf("goroutines of %s from %s (%s): note %q, %d workers", x.Target, x.Endpoint, x.Reason, x.Note, x.Workers)
		for _, gr := range x.Groups {
			t.Logf("  %d %s wait %s own %+v", gr.Count, gr.State, gr.Wait.Func, gr.Own)
		}
		if x.Target != kcmTarget {
			continue
		}
		if x.Note != "" || x.Endpoint != kcmTarget+"/debug/pprof/goroutine" {
			t.Errorf("kube-controller-manager's dump not read from its secure port: %q from %s", x.Note, x.Endpoint)
		}
		// Its ReplicaSet workers wait for the pods they create in a batch, each create held
		// by the webhook: the group names the worker's own frame in the replicaset package.
		for _, gr := range x.Groups {
			if gr.Own != nil && strings.HasPrefix(gr.Own.Func, "k8s.io/kubernetes/pkg/controller/replicaset.") &&
				strings.HasSuffix(gr.Own.File, "replica_set.go") && gr.Count >= 1 && gr.Wait.Func != "" {
				read = true
			}
		}
	}
	if !read {
		t.Errorf("no group of kube-controller-manager's replicaset workers in its dump:\n%s", r.Stdout)
	}
}
