//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The reference operator reconciling Workloads in every namespace (--watch-all-namespaces, as
// its pod's arguments show; a label selector keeps it off the Workloads of other tests), its
// ServiceAccount bound by a ClusterRoleBinding to a ClusterRole
// that lists and watches workloads: report -n <its namespace> reads its Workloads in every
// namespace, names a failing one of another namespace as NAMESPACE/NAME with its reason, says
// which ClusterRole made it so, and a snapshot replays that offline. With the ClusterRole bound
// by a RoleBinding only (granted in that namespace, not cluster-wide), the Workloads are read in
// the operator's namespace and the other one is named nowhere.
func TestReportObjectsClusterWideByRBAC(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	other := newNamespace(t)
	role := clusterWideOperator(t, ns, "ctrldiag-e2e-rbac-")
	// The failure reason is this test's own: the objects view names at most three objects per
	// reason, read in every namespace, and other tests' Workloads fail with reasons of their own.
	apply(t, fmt.Sprintf(`apiVersion: demo.ctrldiag.dev/v1alpha1
kind: Workload
metadata: {name: fine, namespace: %[1]s, labels: {ctrldiag.dev/e2e: %[1]s}}
spec: {}
---
apiVersion: demo.ctrldiag.dev/v1alpha1
kind: Workload
metadata: {name: broken, namespace: %[2]s, labels: {ctrldiag.dev/e2e: %[1]s}}
spec: {failureRate: 1, failureReason: RBACScopeRepositoryNotFound, failureMessage: "repository not found"}
`, ns, other))
	startWideOperator(t, ns)
	eventually(t, 60*time.Second, "the operator to fail the Workload of the other namespace", func() error {
		out := mustKubectl(t, "-n", other, "get", "workloads.demo.ctrldiag.dev", "broken", "-o",
			`jsonpath={.status.conditions[?(@.type=="Ready")].status} {.status.conditions[?(@.type=="Ready")].reason}`)
		if out != "False RBACScopeRepositoryNotFound" {
			return fmt.Errorf("Ready %q", out)
		}
		return nil
	})

	object := other + "/broken"
	why := "ClusterRole " + role + " bound to its ServiceAccount " + ns + "/op by ClusterRoleBinding " + role
	d, r := reportJSON(t, "-n", ns, "--include-apiserver=false", "--interval", "2s")
	if r.Code != 0 {
		t.Fatalf("report -n %s:\n%s", ns, r)
	}
	o := objectsOf(t, d)
	if got := o.failedAs("workloads", object); got != "Ready=False RBACScopeRepositoryNotFound" {
		t.Errorf("the objects view names %s as %q, want Ready=False RBACScopeRepositoryNotFound:\n%s", object, got, d.Objects)
	}
	var scope struct {
		Kinds []struct {
			Kind      struct{ Resource string }
			Namespace string
			Scope     string
		}
	}
	if err := json.Unmarshal(d.Objects, &scope); err != nil {
		t.Fatal(err)
	}
	for _, k := range scope.Kinds {
		if k.Kind.Resource == "workloads" && (k.Namespace != "" || !strings.Contains(k.Scope, why)) {
			t.Errorf("workloads read in namespace %q, scope %q; want all, because %s", k.Namespace, k.Scope, why)
		}
	}
	txt := ctrldiag(t, "report", "-n", ns, "--include-apiserver=false", "--interval", "2s", "-o", "wide")
	if txt.Code != 0 || !strings.Contains(txt.Stdout, object) || !strings.Contains(txt.Stdout, role) {
		t.Errorf("the text report does not name %s, or not why:\n%s", object, txt)
	}

	// A snapshot keeps where the Workloads were read, and its report places them the same
	// way offline.
	file := filepath.Join(t.TempDir(), "wide.tar.gz")
	if r := ctrldiag(t, "snapshot", "-n", ns, "--include-apiserver=false", "--interval", "2s", "-f", file); r.Code != 0 {
		t.Fatalf("snapshot:\n%s", r)
	}
	r = offline(t, "report", "--from-snapshot", file, "-o", "json")
	var replayed reportDoc
	if err := json.Unmarshal([]byte(r.Stdout), &replayed); err != nil || r.Code != 0 {
		t.Fatalf("report --from-snapshot: %v\n%s", err, r)
	}
	if got := objectsOf(t, replayed).failedAs("workloads", object); got != "Ready=False RBACScopeRepositoryNotFound" {
		t.Errorf("replayed offline, the objects view names %s as %q:\n%s", object, got, replayed.Objects)
	}

	// Granted in the other namespace only: the operator is not cluster-wide.
	mustKubectl(t, "delete", "clusterrolebinding", role)
	apply(t, fmt.Sprintf(`apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: op, namespace: %[3]s}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: %[2]s}
subjects: [{kind: ServiceAccount, name: op, namespace: %[1]s}]
`, ns, role, other))
	d, r = reportJSON(t, "-n", ns, "--include-apiserver=false", "--interval", "2s")
	if r.Code != 0 {
		t.Fatalf("report -n %s with a RoleBinding only:\n%s", ns, r)
	}
	// The objects view reads the operator's namespace only; the operator's own log may still
	// name the object (it does fail there), a finding may cite only that.
	if strings.Contains(string(d.Objects), other) {
		t.Errorf("with a RoleBinding only, the objects view names namespace %s:\n%s", other, d.Objects)
	}
	for _, f := range d.Findings {
		for _, e := range f.Evidence {
			if strings.Contains(e.Value, other) && !strings.HasPrefix(e.Name, "log:") {
				t.Errorf("with a RoleBinding only, %s cites %s = %s", f.Code, e.Name, e.Value)
			}
		}
	}
	var narrow struct {
		Kinds []struct {
			Kind      struct{ Resource string }
			Namespace string
			Scope     string
		}
	}
	if err := json.Unmarshal(d.Objects, &narrow); err != nil {
		t.Fatal(err)
	}
	for _, k := range narrow.Kinds {
		if k.Kind.Resource == "workloads" && (k.Namespace != ns || k.Scope != "") {
			t.Errorf("with a RoleBinding only, workloads read in namespace %q (scope %q), want %s", k.Namespace, k.Scope, ns)
		}
	}
	if o := objectsOf(t, d); strings.Contains(strings.Join(o.Notes, " "), "every namespace") {
		t.Errorf("with a RoleBinding only, a note claims every namespace: %q", o.Notes)
	}
}
