//go:build e2e

package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// reportReaderResources are the core resources a user reading the report may get, list and
// watch (pods/log apart: it is a resource of its own).
var reportReaderResources = []string{"pods", "pods/proxy", "services", "endpoints", "namespaces", "nodes", "events",
	"replicationcontrollers", "serviceaccounts", "persistentvolumeclaims", "persistentvolumes"}

// restrictedReader makes a user who may read what report reads, less the core resource
// without (e.g. "events"), and returns the kubeconfig of that user; the ClusterRole and its
// binding are deleted at the end of the test.
func restrictedReader(t *testing.T, prefix, without string) string {
	t.Helper()
	return readerUser(t, fmt.Sprintf("%s-%d", prefix, time.Now().UnixNano()%1e6), without, "")
}

// readerUser makes user a user who may read what report reads, less the core resource
// without, plus the rules in extra (YAML list items), and returns the kubeconfig of that
// user; the ClusterRole and its binding, named user, are deleted at the end of the test.
func readerUser(t *testing.T, user, without, extra string) string {
	t.Helper()
	resources := slices.DeleteFunc(slices.Clone(reportReaderResources), func(r string) bool { return r == without })
	apply(t, fmt.Sprintf(`apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: %[1]s}
rules:
- apiGroups: [""]
  resources: [%[2]s]
  verbs: [get, list, watch]
- apiGroups: [apps, batch, coordination.k8s.io, discovery.k8s.io, metrics.k8s.io, admissionregistration.k8s.io]
  resources: ["*"]
  verbs: [get, list, watch]
- nonResourceURLs: [/metrics]
  verbs: [get]
%[3]s---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: %[1]s}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: %[1]s}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: %[1]s}]
`, user, strings.Join(resources, ", "), extra))
	t.Cleanup(func() {
		kubectl(t, "delete", "clusterrolebinding", user, "--ignore-not-found")
		kubectl(t, "delete", "clusterrole", user, "--ignore-not-found")
	})
	return certKubeconfig(t, user)
}

// reportAs runs report -n kube-system -o json as the user of kubeconfig, once the user's
// ClusterRoleBinding has taken effect, and requires it to succeed.
func reportAs(t *testing.T, kubeconfig string) Result {
	t.Helper()
	var r Result
	eventually(t, 20*time.Second, "the ClusterRoleBinding to take effect", func() error {
		r = runAs(t, kubeconfig, "kubectl", "ctrldiag", "report", "-n", "kube-system", "--interval", "1s", "-o", "json")
		if r.Code != 0 {
			return fmt.Errorf("%s", r)
		}
		return nil
	})
	return r
}
