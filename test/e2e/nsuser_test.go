//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// A user confined to one namespace by a Role (pods, their logs, proxy and port-forward,
// events, the apps, Leases and the operator's objects) reports on their healthy operator:
// the API server's /metrics, which only a ClusterRole can grant, is a note naming the rule
// and the flag that skips it, never a warning, and --fail-on warning exits 0.
func TestReportOfANamespaceScopedUser(t *testing.T) {
	calm(t)
	ns := newNamespace(t)
	operatorBehindPod(t, ns, "operator", "healthy")
	user := fmt.Sprintf("ctrldiag-ns-user-%d", time.Now().UnixNano()%1e6)
	apply(t, fmt.Sprintf(`apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: reader, namespace: %[1]s}
rules:
- apiGroups: [""]
  resources: [pods, pods/log, events, services, endpoints, configmaps]
  verbs: [get, list, watch]
- apiGroups: [""]
  resources: [pods/proxy]
  verbs: [get]
- apiGroups: [""]
  resources: [pods/portforward]
  verbs: [get, create]
- apiGroups: [apps, coordination.k8s.io, events.k8s.io, demo.ctrldiag.dev]
  resources: ["*"]
  verbs: [get, list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: reader, namespace: %[1]s}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: %[2]s}]
`, ns, user))
	kubeconfig := certKubeconfig(t, user)
	time.Sleep(15 * time.Second) // the operator's first reconciles leave the window

	var r Result
	eventually(t, 20*time.Second, "the RoleBinding to take effect", func() error {
		r = runAs(t, kubeconfig, "kubectl", "ctrldiag", "report", "-n", ns, "--fail-on", "warning")
		if strings.Contains(r.Stderr, "may not list pods") {
			return fmt.Errorf("%s", r)
		}
		return nil
	})
	if r.Code != 0 {
		t.Errorf("report -n %s --fail-on warning as a namespace-scoped user: exit %d, want 0\n%s", ns, r.Code, r)
	}
	verdict := verdictOf(r.Stdout)
	if !strings.HasPrefix(verdict, "healthy: the controllers keep up (1 of 1 target read)") {
		t.Errorf("verdict %q, want healthy with the one target read\n%s", verdict, r.Stdout)
	}
	note := strings.Join(strings.Fields(linesFrom(r.Stdout, "Note: ")), " ")
	if !strings.Contains(note, `nonResourceURLs ["/metrics"]`) || !strings.Contains(note, "--include-apiserver=false") {
		t.Errorf("no note naming the rule that reads the API server's /metrics and the flag that skips it:\n%s", r.Stdout)
	}
	if strings.Contains(r.Stdout, "CD101") || strings.Contains(r.Stdout, "scrape-failed") {
		t.Errorf("the API server the user may not read is a finding:\n%s", r.Stdout)
	}
}

// linesFrom is the paragraph of text that starts with prefix: that line and the indented or
// wrapped lines after it, up to a blank line or the next heading.
func linesFrom(text, prefix string) string {
	_, rest, ok := strings.Cut(text, prefix)
	if !ok {
		return ""
	}
	para, _, _ := strings.Cut(rest, "\n\n")
	return para
}
