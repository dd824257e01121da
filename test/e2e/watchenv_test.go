//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// An operator the knobs table does not know, bound to a ClusterRole by a ClusterRoleBinding,
// whose pod takes its environment from a ConfigMap (envFrom): while the ConfigMap sets
// WATCH_NAMESPACE to the operator's namespace, report -n <its namespace> reads its Workloads
// there only; set empty, in every namespace, saying which ClusterRole made it so. A second
// such pod whose envFrom also names a Secret (never read) stays in its namespace, and a note
// says why.
func TestReportWatchNamespaceFromConfigMap(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	role := clusterWideOperator(t, ns, "ctrldiag-e2e-watchenv-")
	apply(t, fmt.Sprintf(`apiVersion: v1
kind: ConfigMap
metadata: {name: op-env, namespace: %[1]s}
data: {WATCH_NAMESPACE: %[1]s, LOG_LEVEL: debug}
---
apiVersion: v1
kind: Secret
metadata: {name: op-creds, namespace: %[1]s}
stringData: {TOKEN: not-a-namespace}
---
apiVersion: demo.ctrldiag.dev/v1alpha1
kind: Workload
metadata: {name: fine, namespace: %[1]s, labels: {ctrldiag.dev/e2e: %[1]s}}
spec: {}
`, ns))
	// Each pod's operator leads alone (no Lease shared with the other), so that its controller runs.
	start := func(name string, envFrom ...map[string]any) {
		args := []string{"operator", "run", "--workload-selector", "ctrldiag.dev/e2e=" + ns, "--leader-elect=false"}
		startBehindPod(t, podSpec{Namespace: ns, Name: name,
			Labels: map[string]string{"app": name}, MemoryLimit: "150Mi",
			Ports:          []podPort{{Name: "http-metrics", Port: 8080}},
			ServiceAccount: "op", Args: args, EnvFrom: envFrom,
			Command: func(listen map[int32]string) []string {
				return append(append([]string{filepath.Join(env.binDir, "kubectl-ctrldiag")}, args...), "-n", ns,
					"--metrics-bind-address", listen[8080], "--health-probe-bind-address", "0")
			}})
	}
	configMap := map[string]any{"configMapRef": map[string]any{"name": "op-env"}}
	start("op-cm", configMap)

	type kind struct {
		Kind        struct{ Resource string }
		Controllers []string
		Namespace   string
		Scope       string
	}
	workloads := func(selector string) (kind, objectsDoc) {
		t.Helper()
		d, r := reportJSON(t, "-n", ns, "-l", selector, "--include-apiserver=false", "--interval", "2s")
		if r.Code != 0 {
			t.Fatalf("report -n %s -l %s:\n%s", ns, selector, r)
		}
		var v struct{ Kinds []kind }
		if err := json.Unmarshal(d.Objects, &v); err != nil {
			t.Fatal(err)
		}
		for _, k := range v.Kinds {
			if k.Kind.Resource == "workloads" {
				return k, objectsOf(t, d)
			}
		}
		t.Fatalf("no workloads in the objects view:\n%s", d.Objects)
		return kind{}, objectsDoc{}
	}

	// WATCH_NAMESPACE from the ConfigMap keeps it in its namespace, whatever its RBAC.
	if k, o := workloads("app=op-cm"); k.Namespace != ns || k.Scope != "" || strings.Contains(strings.Join(o.Notes, " "), "every namespace") {
		t.Errorf("WATCH_NAMESPACE=%s from a ConfigMap: workloads read in namespace %q (scope %q), notes %q; want %s only", ns, k.Namespace, k.Scope, o.Notes, ns)
	}

	// Set empty, it watches every namespace: its ClusterRoleBinding decides.
	mustKubectl(t, "-n", ns, "patch", "configmap", "op-env", "--type=merge", "-p", `{"data":{"WATCH_NAMESPACE":""}}`)
	if k, _ := workloads("app=op-cm"); k.Namespace != "" || !strings.Contains(k.Scope, "ClusterRole "+role) {
		t.Errorf("WATCH_NAMESPACE empty in the ConfigMap: workloads read in namespace %q (scope %q), want all because of ClusterRole %s", k.Namespace, k.Scope, role)
	}

	// A Secret that may set it is never read: its namespace only, and a note says why.
	start("op-secret", configMap, map[string]any{"secretRef": map[string]any{"name": "op-creds"}})
	k, o := workloads("app=op-secret")
	notes := strings.Join(o.Notes, " ")
	if k.Namespace != ns || k.Scope != "" || !strings.Contains(notes, "WATCH_NAMESPACE may come from Secret op-creds (envFrom), which is never read") {
		t.Errorf("envFrom a Secret: workloads read in namespace %q (scope %q), notes %q; want %s only, with a note naming the Secret", k.Namespace, k.Scope, notes, ns)
	}
	if strings.Contains(notes, "not-a-namespace") || strings.Contains(notes, "LOG_LEVEL") {
		t.Errorf("a note shows what the Secret or the ConfigMap hold: %q", notes)
	}
}
