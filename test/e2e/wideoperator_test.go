//go:build e2e

package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// clusterWideOperator creates the ServiceAccount op in ns and makes it cluster-wide for
// Workloads: a ClusterRole named prefix+ns that reads and writes them and their status, bound
// to op by a ClusterRoleBinding of the same name (both removed at the end). It returns that
// name, which the report cites as the reason the operator is cluster-wide.
func clusterWideOperator(t *testing.T, ns, prefix string) string {
	t.Helper()
	workloadCRD(t)
	role := prefix + ns
	apply(t, fmt.Sprintf(`apiVersion: v1
kind: ServiceAccount
metadata: {name: op, namespace: %[1]s}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: %[2]s}
rules:
- apiGroups: [demo.ctrldiag.dev]
  resources: [workloads, workloads/status]
  verbs: [get, list, watch, update, patch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: %[2]s}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: %[2]s}
subjects: [{kind: ServiceAccount, name: op, namespace: %[1]s}]
`, ns, role))
	t.Cleanup(func() {
		kubectl(t, "delete", "clusterrolebinding", role, "--ignore-not-found")
		kubectl(t, "delete", "clusterrole", role, "--ignore-not-found")
	})
	return role
}

// startWideOperator runs the reference operator as pod operator-wide of ns, under the
// ServiceAccount op, watching every namespace for the Workloads labelled ctrldiag.dev/e2e=ns.
func startWideOperator(t *testing.T, ns string) {
	t.Helper()
	args := []string{"operator", "run", "-n", ns, "--watch-all-namespaces", "--workload-selector", "ctrldiag.dev/e2e=" + ns}
	startBehindPod(t, podSpec{Namespace: ns, Name: "operator-wide",
		Labels: map[string]string{"app": "ctrldiag-demo"}, MemoryLimit: "150Mi",
		Ports:          []podPort{{Name: "http-metrics", Port: 8080}},
		ServiceAccount: "op", Args: args,
		Command: func(listen map[int32]string) []string {
			return append(append([]string{filepath.Join(env.binDir, "kubectl-ctrldiag")}, args...),
				"--metrics-bind-address", listen[8080], "--health-probe-bind-address", "0")
		}})
}

// workloadCRD installs the Workload CRD, as the operator does when it starts, for a test that
// creates Workloads before its operator runs: the manifests `operator install` would apply
// hold it.
func workloadCRD(t *testing.T) {
	t.Helper()
	r := ctrldiag(t, "operator", "install", "--dry-run=client", "-o", "yaml")
	if r.Code != 0 {
		t.Fatalf("operator install --dry-run=client:\n%s", r)
	}
	for _, doc := range strings.Split(r.Stdout, "\n---\n") {
		if strings.Contains(doc, "\nkind: CustomResourceDefinition\n") || strings.HasPrefix(doc, "kind: CustomResourceDefinition\n") {
			apply(t, doc)
			mustKubectl(t, "wait", "--for", "condition=Established", "--timeout", "60s", "crd/workloads.demo.ctrldiag.dev")
			return
		}
	}
	t.Fatalf("operator install --dry-run=client prints no CustomResourceDefinition:\n%s", r.Stdout)
}
