//go:build e2e

package e2e

import (
	"bufio"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// dispatched is the API server's apiserver_flowcontrol_dispatched_requests_total for
// FlowSchema fs, summed over its priority levels: how many requests it classified.
func dispatched(t *testing.T, fs string) float64 {
	t.Helper()
	var n float64
	sc := bufio.NewScanner(strings.NewReader(mustKubectl(t, "get", "--raw", "/metrics")))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "apiserver_flowcontrol_dispatched_requests_total{") || !strings.Contains(line, `flow_schema="`+fs+`"`) {
			continue
		}
		if v, err := strconv.ParseFloat(line[strings.LastIndexByte(line, ' ')+1:], 64); err == nil {
			n += v
		}
	}
	return n
}

// A FlowSchema of the test's own classifies the pod creates of kube-controller-manager's
// replicaset-controller (this cluster runs it with --use-service-account-credentials, so that
// controller sends as ServiceAccount kube-system/replicaset-controller) in the test's namespace
// only, into a priority level of three seats (1 share of the server's 600) with one queue of
// 100; a validating webhook there holds each create 500ms, so the level serves 6 creates/s
// while the controller's client sends up to 20/s (kube-controller-manager's default
// --kube-api-qps). A ReplicaSet of 200 replicas makes the controller create its pods in
// batches (1, 2, 4 ... 64) whose last creates wait seconds in the level's queue. The report read
// from a snapshot, with the API server in scope, names that FlowSchema, its priority level and
// the p99 wait on the replicaset queue (flowschema-waits), and on no other queue.
//
// Isolation: the FlowSchema's rule is scoped to the identity, the verb, the resource and the
// namespace, so no other request (of this or any other controller, in any other namespace) is
// classified by it; its matchingPrecedence (850) is below kube-system-service-accounts (900),
// which classifies kube-system's ServiceAccounts otherwise, and above every FlowSchema that
// must keep its place (exempt, probes, leader election, nodes, at 500 and below). The load
// goes through the replicaset controller all the same (its workers and its client's rate
// limiter serve every namespace), and the controller is slow while it lasts: the test is not
// parallel.
// Runs alone: it slows kube-controller-manager's replicaset controller (shared by every namespace)
// with a burst of 200 pod creates, and asserts kube-controller-manager-wide flowschema-waits
// findings (none before the load, only on the replicaset queue after).
func TestReportNamesFlowSchemaWaits(t *testing.T) {
	ns := newNamespace(t)
	name := "ctrldiag-e2e-queued-" + ns
	const identity = "system:serviceaccount:kube-system:replicaset-controller"
	if out := mustKubectl(t, "-n", "kube-system", "get", "pods", "-l", "component=kube-controller-manager", "-o", "jsonpath={.items[0].spec.containers[0].command}"); !strings.Contains(out, "--use-service-account-credentials=true") {
		t.Fatalf("kube-controller-manager does not run with --use-service-account-credentials: its replicaset controller would not send as %s: %s", identity, out)
	}
	hook := startSlowWebhook(t, 500*time.Millisecond)
	// Cleanups run last first: the ReplicaSet goes, then the webhook configuration (before its
	// server stops), then the FlowSchema and its level.
	t.Cleanup(func() {
		kubectl(t, "delete", "flowschema/"+name, "prioritylevelconfiguration/"+name, "--ignore-not-found", "--wait=false")
	})
	apply(t, fmt.Sprintf(`apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: PriorityLevelConfiguration
metadata: {name: %[1]s}
spec:
  type: Limited
  limited:
    nominalConcurrencyShares: 1
    lendablePercent: 0
    borrowingLimitPercent: 0
    limitResponse:
      type: Queue
      queuing: {queues: 1, handSize: 1, queueLengthLimit: 100}
---
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: FlowSchema
metadata: {name: %[1]s}
spec:
  priorityLevelConfiguration: {name: %[1]s}
  matchingPrecedence: 850
  distinguisherMethod: {type: ByUser}
  rules:
    - subjects:
        - kind: ServiceAccount
          serviceAccount: {name: replicaset-controller, namespace: kube-system}
      resourceRules:
        - verbs: [create]
          apiGroups: [""]
          resources: [pods]
          namespaces: [%[2]s]
`, name, ns))
	eventually(t, 30*time.Second, "the FlowSchema taken up", func() error {
		r := kubectl(t, "get", "flowschema", name, "-o", `jsonpath={.status.conditions[?(@.type=="Dangling")].status}`)
		if strings.TrimSpace(r.Stdout) != "False" {
			return fmt.Errorf("Dangling %q %s", r.Stdout, r.Stderr)
		}
		return nil
	})

	interceptPodCreates(t, ns, name, "seat-holder.e2e.ctrldiag.dev", "Ignore", hook)

	// Before the load: the FlowSchema has classified nothing (the admin's dry run is exempt),
	// and no FlowSchema of kube-controller-manager's controllers waits.
	before := dispatched(t, name)
	rest, r := reportJSON(t, "-n", "kube-system", "--interval", "5s")
	if r.Code != 0 {
		t.Fatalf("report before the load:\n%s", r)
	}
	for _, f := range rest.Findings {
		if f.Check == "flowschema-waits" {
			t.Errorf("before the load: %s on %s/%s: %s", f.Check, f.Target, f.Queue, f.Summary)
		}
	}

	file := filepath.Join(t.TempDir(), "queued.tar.gz")
	done := make(chan Result, 1)
	go func() { done <- ctrldiag(t, "snapshot", "-n", "kube-system", "--interval", "15s", "-f", file) }()
	time.Sleep(2 * time.Second)
	apply(t, fmt.Sprintf(`apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: burst, namespace: %s}
spec:
  replicas: 200
  selector: {matchLabels: {app: burst}}
  template:
    metadata: {labels: {app: burst}}
    spec:
      nodeSelector: {ctrldiag.dev/none: "none"}
      containers: [{name: pause, image: registry.k8s.io/pause:3.10}]
`, ns))
	t.Cleanup(func() { kubectl(t, "-n", ns, "scale", "replicaset", "burst", "--replicas=0") })
	if r := <-done; r.Code != 0 {
		t.Fatalf("snapshot:\n%s", r)
	}
	// The classification the test relies on, as the API server made it: the controller's
	// creates went to the test's FlowSchema.
	classified := dispatched(t, name) - before
	t.Logf("webhook calls: %d; requests the FlowSchema classified: %.0f", hook.calls.Load(), classified)
	if classified < 10 {
		t.Fatalf("the API server classified %.0f requests with FlowSchema %s: the replicaset controller's creates did not go there", classified, name)
	}
	kubectl(t, "-n", ns, "scale", "replicaset", "burst", "--replicas=0")

	d, r := reportJSON(t, "--from-snapshot", file)
	if r.Code != 0 {
		t.Fatalf("report --from-snapshot:\n%s", r)
	}
	t.Logf("findings: %s", d.checks())
	named := false
	for _, f := range d.Findings {
		if f.Check != "flowschema-waits" {
			continue
		}
		ev := map[string]string{}
		var wait string
		for _, e := range f.Evidence {
			ev[e.Name] = e.Value
			if strings.HasPrefix(e.Name, "queue wait p99 on ") {
				wait = e.Value
			}
		}
		t.Logf("%s %s/%s: %s %v", f.Code, f.Target, f.Queue, f.Summary, ev)
		if f.Queue != "replicaset" {
			t.Errorf("flowschema-waits on queue %q, whose requests the test's FlowSchema does not classify: %s", f.Queue, f.Summary)
			continue
		}
		named = true
		if f.Code != "CD221" || f.Severity != "warning" || f.Target != kcmTarget || ev["FlowSchema"] != name+" (matchingPrecedence 850)" || ev["priority level"] != name ||
			ev["classified identity"] != identity || !strings.Contains(f.Summary, "FlowSchema "+name+" sends them to priority level "+name) {
			t.Errorf("the finding does not name the FlowSchema and its level as configured: %s\n%v", f.Summary, ev)
		}
		if s, err := seconds(wait); err != nil || s < 1 || !strings.Contains(f.Summary, "waited up to "+wait+" (p99)") {
			t.Errorf("the finding's p99 wait %q (%v) is not the wait >= 1s the summary tells: %s", wait, err, f.Summary)
		}
	}
	if !named {
		t.Fatalf("no flowschema-waits on kube-controller-manager's replicaset queue naming FlowSchema %s; findings: %s", name, d.checks())
	}
}

// seconds parses a duration as findings print it ("1.2s", "850ms", ">= 2.5s").
func seconds(s string) (float64, error) {
	d, err := time.ParseDuration(strings.TrimSpace(strings.TrimPrefix(s, ">=")))
	return d.Seconds(), err
}
