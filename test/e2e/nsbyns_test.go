//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// A user who may list namespaces and the Workloads of two namespaces only (RoleBindings, no
// cluster-wide list) reports the reference operator, which reconciles Workloads in every
// namespace: its Workloads are read namespace by namespace in those two, a failing one of the
// second is named with its reason, the note says which namespaces were read, and the failing
// one of a third namespace the user may not list is named nowhere. The Warning events, which
// the user may list in the same two namespaces only, are read there the same way.
func TestReportObjectsNamespaceByNamespace(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	// The other namespaces sort first, so that they are among the namespaces checked however
	// many the cluster holds.
	suffix := fmt.Sprintf("%d", time.Now().UnixNano()%100000)
	second, third := "a-e2e-nsbyns-allowed-"+suffix, "a-e2e-nsbyns-denied-"+suffix
	for _, n := range []string{second, third} {
		mustKubectl(t, "create", "namespace", n)
		t.Cleanup(func() {
			cmd := exec.Command("kubectl", "delete", "namespace", n, "--wait=false")
			cmd.Env = commandEnv(env.kubeconfig)
			_ = cmd.Run()
		})
	}
	role := clusterWideOperator(t, ns, "ctrldiag-e2e-nsbyns-")
	apply(t, fmt.Sprintf(`apiVersion: demo.ctrldiag.dev/v1alpha1
kind: Workload
metadata: {name: fine, namespace: %[1]s, labels: {ctrldiag.dev/e2e: %[1]s}}
spec: {}
---
apiVersion: demo.ctrldiag.dev/v1alpha1
kind: Workload
metadata: {name: broken, namespace: %[2]s, labels: {ctrldiag.dev/e2e: %[1]s}}
spec: {failureRate: 1, failureReason: RepositoryNotFound, failureMessage: "repository not found"}
---
apiVersion: demo.ctrldiag.dev/v1alpha1
kind: Workload
metadata: {name: hidden, namespace: %[3]s, labels: {ctrldiag.dev/e2e: %[1]s}}
spec: {failureRate: 1, failureReason: RepositoryNotFound, failureMessage: "repository not found"}
`, ns, second, third))
	startWideOperator(t, ns)
	for _, object := range []string{second + "/broken", third + "/hidden"} {
		n, name, _ := strings.Cut(object, "/")
		eventually(t, 60*time.Second, "the operator to fail "+object, func() error {
			out := mustKubectl(t, "-n", n, "get", "workloads.demo.ctrldiag.dev", name, "-o",
				`jsonpath={.status.conditions[?(@.type=="Ready")].status} {.status.conditions[?(@.type=="Ready")].reason}`)
			if out != "False RepositoryNotFound" {
				return fmt.Errorf("Ready %q", out)
			}
			return nil
		})
	}

	// The user reads what report reads (namespaces among it, cluster-wide, and the RBAC that
	// makes the operator cluster-wide), and the Workloads of the operator's namespace and the
	// second one only.
	// Events the same way: not cluster-wide, but in those two namespaces.
	user := "ctrldiag-e2e-nsbyns-" + suffix
	kubeconfig := readerUser(t, user, "events", `- apiGroups: [rbac.authorization.k8s.io]
  resources: [clusterrolebindings, clusterroles]
  verbs: [get, list]
`)
	apply(t, fmt.Sprintf(`apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: %s-events}
rules:
- apiGroups: [""]
  resources: [events]
  verbs: [list]
`, user))
	t.Cleanup(func() { kubectl(t, "delete", "clusterrole", user+"-events", "--ignore-not-found") })
	for _, n := range []string{ns, second} {
		apply(t, fmt.Sprintf(`apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: workload-reader, namespace: %[1]s}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: %[2]s}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: %[3]s}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: events-reader, namespace: %[1]s}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: %[3]s-events}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: %[3]s}]
`, n, role, user))
	}
	// A Warning event on each failing Workload (the operator records none itself).
	for _, object := range []string{second + "/broken", third + "/hidden"} {
		n, name, _ := strings.Cut(object, "/")
		at := time.Now().UTC().Format(time.RFC3339)
		apply(t, fmt.Sprintf(`apiVersion: v1
kind: Event
metadata: {name: %[2]s-sync-failed, namespace: %[1]s}
type: Warning
reason: SyncFailed
message: repository not found
involvedObject: {apiVersion: demo.ctrldiag.dev/v1alpha1, kind: Workload, namespace: %[1]s, name: %[2]s}
source: {component: workload-controller}
count: 1
firstTimestamp: %[3]s
lastTimestamp: %[3]s
`, n, name, at))
	}
	var d reportDoc
	var evs warningEventsDoc
	eventually(t, 30*time.Second, "the user's report to read the Workloads namespace by namespace", func() error {
		r := runAs(t, kubeconfig, "kubectl", "ctrldiag", "report", "-n", ns, "--include-apiserver=false", "--interval", "2s", "-o", "json")
		if r.Code != 0 {
			return fmt.Errorf("report -n %s as a restricted user:\n%s", ns, r)
		}
		if err := json.Unmarshal([]byte(r.Stdout), &d); err != nil {
			return err
		}
		evs = warningEventsOf(t, r)
		if !strings.Contains(string(d.Objects), "namespace by namespace") {
			return fmt.Errorf("not read namespace by namespace yet:\n%s", d.Objects)
		}
		return nil
	})
	o := objectsOf(t, d)
	if got := o.failedAs("workloads", second+"/broken"); got != "Ready=False RepositoryNotFound" {
		t.Errorf("the objects view names %s/broken as %q, want Ready=False RepositoryNotFound:\n%s", second, got, d.Objects)
	}
	var where struct {
		Kinds []struct {
			Kind       struct{ Resource string }
			Namespace  string
			Namespaces []string
		}
	}
	if err := json.Unmarshal(d.Objects, &where); err != nil {
		t.Fatal(err)
	}
	for _, k := range where.Kinds {
		if k.Kind.Resource == "workloads" && (k.Namespace != "" || !slices.Equal(k.Namespaces, []string{ns, second})) {
			t.Errorf("workloads read in namespace %q, namespaces %q; want %s and %s", k.Namespace, k.Namespaces, ns, second)
		}
	}
	notes := strings.Join(o.Notes, " ")
	if want := fmt.Sprintf("read namespace by namespace in the 2 namespaces you may list them in (%s, %s); the other namespaces were not allowed", ns, second); !strings.Contains(notes, want) {
		t.Errorf("notes %q, want one saying %q", notes, want)
	}
	if strings.Contains(string(d.Objects), third) {
		t.Errorf("the objects view names namespace %s, which the user may not list:\n%s", third, d.Objects)
	}
	// The Warning events are read in the same two namespaces: the second's event is there, the
	// third's not.
	if w := evs.WarningEvents; !slices.Equal(w.Namespaces, []string{ns, second}) {
		t.Errorf("Warning events read in %q, want %s and %s (notes %q)", w.Namespaces, ns, second, w.Notes)
	}
	var objects []string
	for _, g := range evs.WarningEvents.Groups {
		objects = append(objects, g.Reason+" "+g.Kind+" "+g.Object)
	}
	if !slices.Contains(objects, "SyncFailed Workload "+second+"/broken") || slices.Contains(objects, "SyncFailed Workload "+third+"/hidden") {
		t.Errorf("Warning event groups %q: want %s/broken's, not %s/hidden's", objects, second, third)
	}
	if want := fmt.Sprintf("Warning events read namespace by namespace in the 2 namespaces you may list them in (%s, %s)", ns, second); !strings.Contains(strings.Join(evs.WarningEvents.Notes, " "), want) {
		t.Errorf("Warning event notes %q, want one saying %q", evs.WarningEvents.Notes, want)
	}

	// A snapshot keeps where the Workloads were read, and its report places them the same way
	// offline.
	file := filepath.Join(t.TempDir(), "nsbyns.tar.gz")
	if r := runAs(t, kubeconfig, "kubectl", "ctrldiag", "snapshot", "-n", ns, "--include-apiserver=false", "--interval", "2s", "-f", file); r.Code != 0 {
		t.Fatalf("snapshot as the restricted user:\n%s", r)
	}
	r := offline(t, "report", "--from-snapshot", file, "-o", "json")
	var replayed reportDoc
	if err := json.Unmarshal([]byte(r.Stdout), &replayed); err != nil || r.Code != 0 {
		t.Fatalf("report --from-snapshot: %v\n%s", err, r)
	}
	if got := objectsOf(t, replayed).failedAs("workloads", second+"/broken"); got != "Ready=False RepositoryNotFound" {
		t.Errorf("replayed offline, the objects view names %s/broken as %q:\n%s", second, got, replayed.Objects)
	}
	if !strings.Contains(string(replayed.Objects), `"namespaces"`) || strings.Contains(string(replayed.Objects), third) {
		t.Errorf("replayed offline, the objects view does not say where the Workloads were read, or names %s:\n%s", third, replayed.Objects)
	}
}
