//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// kube-scheduler at rest raises nothing. The local cluster runs it (hack/cluster/up.sh), but
// unlike kube-controller-manager without a pod, so discovery never finds it and
// TestReportControlPlaneAtRest reads kube-controller-manager and the API server only. Here a
// pod stands for it as kubeadm shows it (host network on the node, label
// component=kube-scheduler), in the test's namespace so that no other test sees it. Its
// /metrics, as in kubeadm clusters, admits only a token allowed to get /metrics: report reads
// it with --token-from-sa, through a port-forward (kwok's PortForward to the node's 10259).
// Runs alone: asserts the cluster's one kube-scheduler raises no warning, which other tests' pods
// would change.
func TestReportSchedulerAtRest(t *testing.T) {
	ns := newNamespace(t)
	const pod = "kube-scheduler-ctrldiag-node"
	nodeIP := strings.TrimSpace(mustKubectl(t, "get", "node", "ctrldiag-node", "-o", `jsonpath={.status.addresses[?(@.type=="InternalIP")].address}`))
	manifest := func(v any) string { b, _ := json.Marshal(v); return string(b) + "\n" }
	apply(t, manifest(map[string]any{
		"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": pod, "namespace": ns,
			"labels": map[string]string{"component": "kube-scheduler", "tier": "control-plane"}},
		"spec": map[string]any{"nodeName": "ctrldiag-node", "hostNetwork": true, "terminationGracePeriodSeconds": 0,
			"containers": []map[string]any{{"name": "kube-scheduler", "image": "registry.k8s.io/kube-scheduler:v1.36.3",
				"command": []string{"kube-scheduler", "--bind-address=" + nodeIP, "--secure-port=10259", "--leader-elect=true"}}}},
	})+manifest(map[string]any{
		"apiVersion": "kwok.x-k8s.io/v1alpha1", "kind": "PortForward",
		"metadata": map[string]any{"name": pod, "namespace": ns},
		"spec": map[string]any{"forwards": []map[string]any{{"ports": []int{10259},
			"target": map[string]any{"address": nodeIP, "port": 10259}}}},
	}))
	eventually(t, 60*time.Second, "pod "+pod+" Ready on the node's IP", func() error {
		r := kubectl(t, "-n", ns, "get", "pod", pod, "-o", `jsonpath={.status.podIP} {.status.conditions[?(@.type=="Ready")].status}`)
		if want := nodeIP + " True"; strings.TrimSpace(r.Stdout) != want {
			return fmt.Errorf("pod shows %q, want %q %s", r.Stdout, want, r.Stderr)
		}
		return nil
	})
	mustKubectl(t, "-n", ns, "create", "serviceaccount", "scraper")
	mustKubectl(t, "create", "clusterrole", "e2e-metrics-reader-"+ns, "--verb=get", "--non-resource-url=/metrics")
	mustKubectl(t, "create", "clusterrolebinding", "e2e-metrics-reader-"+ns, "--clusterrole=e2e-metrics-reader-"+ns,
		"--serviceaccount="+ns+":scraper")
	t.Cleanup(func() {
		kubectl(t, "delete", "clusterrolebinding,clusterrole", "e2e-metrics-reader-"+ns, "--ignore-not-found")
	})

	d, r := reportJSON(t, "-n", ns, "--include-apiserver=false", "--token-from-sa", ns+"/scraper", "--insecure-skip-tls-verify-metrics")
	if r.Code != 0 || d.Summary.Targets != 1 || d.Summary.Read != 1 {
		t.Fatalf("report must read the scheduler:\n%s", r)
	}
	if d.Summary.Critical+d.Summary.Warning > 0 {
		t.Errorf("kube-scheduler at rest raised: %s\n%+v", d.checks(), d.Findings)
	}
	for _, dis := range d.disagreements() {
		t.Errorf("section 2 and the findings disagree: %s", dis)
	}
	t.Logf("kube-scheduler at rest: %d queues, findings %q", len(d.Backlog), d.checks())
}
