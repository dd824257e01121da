//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// With the Prometheus Operator's CRDs served, ServiceMonitors and PodMonitors lead discovery to
// pods that no other rule finds (ports named "web", "custom" and "remote", no annotations, no
// kubebuilder Service), including a monitor kept in another namespace that names this one, and
// queues reads them; a user who may not list the monitors gets a warning and the other rules,
// not a failure. The CRDs exist only while this test runs: it is not parallel, so
// no other test sees them come and go.
//
// Runs alone: it installs and deletes the cluster-wide monitoring.coreos.com CRDs, which change
// every other test's discovery.
func TestMonitorDiscovery(t *testing.T) {
	installMonitoringCRDs(t)
	ns := newNamespace(t)
	page := filepath.Join(env.root, "testdata/pages/controller-runtime-1.prom")
	serve := func(port int32) func(map[int32]string) []string {
		return func(l map[int32]string) []string { return []string{env.servepage, "--listen", l[port], "--file", page} }
	}
	bySvc := startBehindPod(t, podSpec{Namespace: ns, Name: "by-servicemonitor", Labels: map[string]string{"app": "by-sm"},
		Ports: []podPort{{Name: "web", Port: 8081}}, Command: serve(8081)})
	byPod := startBehindPod(t, podSpec{Namespace: ns, Name: "by-podmonitor", Labels: map[string]string{"app": "by-pm"},
		Ports: []podPort{{Name: "custom", Port: 9091}}, Command: serve(9091)})
	byRemote := startBehindPod(t, podSpec{Namespace: ns, Name: "by-remote-podmonitor", Labels: map[string]string{"app": "by-remote"},
		Ports: []podPort{{Name: "remote", Port: 9092}}, Command: serve(9092)})
	monitoring := newNamespace(t) // where kube-prometheus keeps its monitors

	if items, r := targetsJSON(t, env.kubeconfig, "-n", ns); len(items) != 0 {
		t.Fatalf("before the monitors, no rule may find these pods:\n%s", r)
	}

	apply(t, fmt.Sprintf(`apiVersion: v1
kind: Service
metadata: {name: by-sm, namespace: %[1]s, labels: {app: by-sm}}
spec:
  selector: {app: by-sm}
  ports: [{name: web, port: 80, targetPort: web}]
---
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata: {name: sm, namespace: %[1]s}
spec:
  selector: {matchLabels: {app: by-sm}}
  endpoints: [{port: web, path: /metrics}]
---
apiVersion: monitoring.coreos.com/v1
kind: PodMonitor
metadata: {name: pm, namespace: %[1]s}
spec:
  selector: {matchLabels: {app: by-pm}}
  podMetricsEndpoints: [{port: custom}]
---
apiVersion: monitoring.coreos.com/v1
kind: PodMonitor
metadata: {name: remote, namespace: %[2]s}
spec:
  namespaceSelector: {matchNames: [%[1]s]}
  selector: {matchLabels: {app: by-remote}}
  podMetricsEndpoints: [{port: remote}]
`, ns, monitoring))

	items, r := targetsJSON(t, env.kubeconfig, "-n", ns)
	found := map[string]string{}
	for _, it := range items {
		found[fmt.Sprintf("%s:%d", it.Name, it.Port)] = it.Reason
	}
	want := map[string]string{
		bySvc.Name + ":8081":    "ServiceMonitor " + ns + "/sm, endpoint port web of Service by-sm",
		byPod.Name + ":9091":    "PodMonitor " + ns + "/pm",
		byRemote.Name + ":9092": "PodMonitor " + monitoring + "/remote",
	}
	if len(found) != len(want) {
		t.Fatalf("targets found %v, want %v\n%s", found, want, r)
	}
	for k, reason := range want {
		if !strings.Contains(found[k], reason) {
			t.Errorf("target %s: found by %q, want it found by %q\n%s", k, found[k], reason, r)
		}
	}

	l, r := queuesJSON(t, "-n", ns, "--interval", "0")
	if r.Code != 0 {
		t.Fatalf("queues -n %s:\n%s", ns, r)
	}
	for _, id := range []string{ns + "/" + bySvc.Name + ":8081", ns + "/" + byPod.Name + ":9091", ns + "/" + byRemote.Name + ":9092"} {
		if len(l.targetsOf()[id]) == 0 {
			t.Errorf("queues read nothing from %s: %v\n%s", id, slices.Collect(func(yield func(string) bool) {
				for k := range l.targetsOf() {
					if !yield(k) {
						return
					}
				}
			}), r)
		}
	}

	// A user who may read pods and services but not the monitors: a warning that says so, and
	// discovery goes on without them.
	mustKubectl(t, "-n", ns, "create", "rolebinding", "reader", "--clusterrole=ctrldiag-restricted-reader", "--user=ctrldiag-restricted")
	eventually(t, 10*time.Second, "the RoleBinding to take effect", func() error {
		items, r := targetsJSON(t, env.restricted, "-n", ns)
		if r.Code != 0 || len(items) != 0 || !strings.Contains(r.Stderr, "ServiceMonitors are not looked at") ||
			!strings.Contains(r.Stderr, "PodMonitors are not looked at") {
			return fmt.Errorf("%s", r)
		}
		return nil
	})
}

// targetItem is the part of `targets -o json` these tests read.
type targetItem struct {
	Name   string
	Port   int
	Reason string
}

// targetsJSON runs `kubectl ctrldiag targets -o json args...` with kubeconfig and returns its
// items (none when it failed).
func targetsJSON(t *testing.T, kubeconfig string, args ...string) ([]targetItem, Result) {
	t.Helper()
	r := runAs(t, kubeconfig, "kubectl", append([]string{"ctrldiag", "targets", "-o", "json"}, args...)...)
	var l struct{ Items []targetItem }
	if r.Code == 0 {
		if err := json.Unmarshal([]byte(r.Stdout), &l); err != nil {
			t.Fatalf("targets -o json is not JSON: %v\n%s", err, r)
		}
	}
	return l.Items, r
}

// installMonitoringCRDs installs ServiceMonitor and PodMonitor, waits until they are served, and
// deletes them when the test ends, waiting until the API is no longer served.
func installMonitoringCRDs(t *testing.T) {
	t.Helper()
	crds, err := os.ReadFile(filepath.Join(env.root, "test/e2e/testdata/monitoring-crds.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"crd/servicemonitors.monitoring.coreos.com", "crd/podmonitors.monitoring.coreos.com"}
	t.Cleanup(func() {
		r := kubectl(t, append([]string{"delete", "--ignore-not-found", "--wait", "--timeout=60s"}, names...)...)
		if r.Code != 0 {
			t.Errorf("deleting the monitoring CRDs: %s", r)
		}
		// The tests after this one must not see the API still served for a moment.
		eventually(t, 30*time.Second, "monitoring.coreos.com/v1 to be gone", func() error {
			if r := kubectl(t, "get", "--raw", "/apis/monitoring.coreos.com/v1"); r.Code == 0 {
				return fmt.Errorf("still served: %s", r.Stdout)
			}
			return nil
		})
	})
	apply(t, string(crds))
	mustKubectl(t, append([]string{"wait", "--for=condition=Established", "--timeout=60s"}, names...)...)
	eventually(t, 30*time.Second, "monitoring.coreos.com/v1 to be served", func() error {
		r := kubectl(t, "get", "--raw", "/apis/monitoring.coreos.com/v1")
		if !strings.Contains(r.Stdout, `"servicemonitors"`) || !strings.Contains(r.Stdout, `"podmonitors"`) {
			return fmt.Errorf("%s", r)
		}
		return nil
	})
}
