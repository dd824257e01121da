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

// A Deployment's own annotation accepts a check for its pods, as the pod template's does: the
// saturated operator's pod is owned by a Deployment annotated ctrldiag.io/ignore: CD208, and
// report names the Deployment as the source of the suppression.
func TestDeploymentAnnotationSuppresses(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	apply(t, fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: operator
  namespace: %s
  annotations: {ctrldiag.io/ignore: "CD208"}
spec:
  replicas: 0
  selector: {matchLabels: {app: ctrldiag-owned}}
  template:
    metadata: {labels: {app: ctrldiag-owned}}
    spec: {containers: [{name: manager, image: none}]}
`, ns))
	uid := strings.TrimSpace(mustKubectl(t, "-n", ns, "get", "deployment", "operator", "-o", "jsonpath={.metadata.uid}"))
	plugin := filepath.Join(env.binDir, "kubectl-ctrldiag")
	p := startBehindPod(t, podSpec{Namespace: ns, Name: "operator-7d9f8-abcde", MemoryLimit: "150Mi",
		Labels: map[string]string{"app": "ctrldiag-demo"}, Ports: []podPort{{Name: "http-metrics", Port: 8080}},
		Owner: &podOwner{Kind: "Deployment", APIVersion: "apps/v1", Name: "operator", UID: uid},
		Command: func(l map[int32]string) []string {
			return []string{plugin, "operator", "run", "-n", ns, "--scenario", "saturated",
				"--metrics-bind-address", l[8080], "--health-probe-bind-address", "0"}
		}})
	time.Sleep(15 * time.Second)
	r := ctrldiag(t, "report", "-n", ns, "--include-apiserver=false", "--ignore-file", "none", "-o", "json")
	if r.Code != 0 {
		t.Fatalf("report:\n%s", r)
	}
	var d ciDoc
	if err := json.Unmarshal([]byte(r.Stdout), &d); err != nil {
		t.Fatalf("report -o json: %v\n%s", err, r)
	}
	id := fmt.Sprintf("%s/%s:8080", ns, p.Name)
	want := "annotation ctrldiag.io/ignore on deployment/operator in " + ns
	if d.Suppressions == nil || len(d.Suppressions.Findings) == 0 {
		t.Fatalf("want workers-saturated of %s suppressed by %s: %+v\n%s", id, want, d.Suppressions, r)
	}
	for _, s := range d.Suppressions.Findings {
		if s.Check != "workers-saturated" || s.Target != id || s.Source != want {
			t.Errorf("suppressed %+v, want only workers-saturated of %s by %s", s, id, want)
		}
	}
	for _, f := range d.Findings {
		if f.Check == "workers-saturated" {
			t.Errorf("workers-saturated is still among the findings: %+v", f)
		}
	}
}
