//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The apf-throttled scenario is diagnosed as server-throttling, through discovery and through
// --url, and with the API server in scope the report names the priority level that rejects.
// API Priority and Fairness exempts system:masters, the admin kubeconfig's group, so the
// operator runs as a ServiceAccount (--as), which the scenario's FlowSchema matches; the
// operator creates its FlowSchema and PriorityLevelConfiguration and deletes them when it
// stops, and the test deletes them too in case it could not.
// Runs alone: its windows must end before the throttled reconcile passes stuckAfter (30s) or
// stuck-worker tops the report; kwok, API-server and start-up delays under load eat the ~8s margin.
func TestReportDiagnosesAPFThrottling(t *testing.T) {
	ns := newNamespace(t)
	const sa = "apf-operator"
	level := "ctrldiag-apf-throttled-" + ns // scenario.FlowControlName
	binding := "e2e-apf-" + ns
	mustKubectl(t, "-n", ns, "create", "serviceaccount", sa)
	mustKubectl(t, "create", "clusterrolebinding", binding, "--clusterrole=cluster-admin", "--serviceaccount="+ns+":"+sa)
	t.Cleanup(func() { // runs after the operator stopped (cleanups run last first)
		for _, obj := range []string{"flowschema/" + level, "prioritylevelconfiguration/" + level, "clusterrolebinding/" + binding} {
			cmd := exec.Command("kubectl", "delete", obj, "--ignore-not-found", "--wait=false")
			cmd.Env = commandEnv(env.kubeconfig)
			_ = cmd.Run()
		}
	})
	p := startBehindPod(t, podSpec{Namespace: ns, Name: "operator-apf-throttled",
		Labels: map[string]string{"app": "ctrldiag-demo"},
		Ports:  []podPort{{Name: "http-metrics", Port: 8080}},
		Command: func(listen map[int32]string) []string {
			return []string{filepath.Join(env.binDir, "kubectl-ctrldiag"), "operator", "run", "-n", ns,
				"--as", "system:serviceaccount:" + ns + ":" + sa,
				"--scenario", "apf-throttled", "--metrics-bind-address", listen[8080], "--health-probe-bind-address", "0"}
		}})
	eventually(t, 60*time.Second, "the scenario's FlowSchema", func() error {
		if r := kubectl(t, "get", "flowschema", level); r.Code != 0 {
			return fmt.Errorf("%s", r.Stderr)
		}
		return nil
	})
	time.Sleep(10 * time.Second)
	operator := fmt.Sprintf("%s/%s:8080", ns, p.Name)
	url := "http://" + p.Listen[8080] + "/metrics"
	// APF's Retry-After bunches the operator's retries, so its 429s come in bursts some 9s
	// apart: each window spans 12s to hold one. Both reports read the same window, early:
	// behind the throttling one reconcile stays in a worker for good, and past stuckAfter (30s)
	// it would rightly be a stuck worker as well.
	ways := [][]string{{"-n", ns, "--interval", "12s"}, {"--url", url, "--interval", "12s"}}
	runs := make([]Result, len(ways))
	var wg sync.WaitGroup
	for i, way := range ways {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runs[i] = ctrldiag(t, append([]string{"report", "-o", "json"}, way...)...)
		}()
	}
	wg.Wait()
	for i, way := range ways {
		r := runs[i]
		if r.Code != 0 {
			t.Fatalf("report %v:\n%s", way, r)
		}
		var d reportDoc
		if err := json.Unmarshal([]byte(r.Stdout), &d); err != nil {
			t.Fatalf("report %v -o json is not JSON: %v\n%s", way, err, r)
		}
		top, topOfOperator := "", ""
		onOperator, onLevel := -1, -1
		for i, f := range d.Findings {
			if f.Severity == "info" {
				continue
			}
			if top == "" {
				top = f.Check
			}
			if topOfOperator == "" && (f.Target == operator || f.Target == url) {
				topOfOperator = f.Check
			}
			if f.Check == "server-throttling" && (f.Target == operator || f.Target == url) {
				onOperator = i
			}
			if f.Check == "server-throttling" && f.Target == "apiserver" && f.Queue == level {
				onLevel = i
			}
		}
		t.Logf("report %v: %s", way, d.checks())
		if top != "server-throttling" || topOfOperator != "server-throttling" || onOperator < 0 {
			t.Fatalf("report %v: top finding %q, the operator's %q, want server-throttling; all: %s", way, top, topOfOperator, d.checks())
		}
		f := d.Findings[onOperator]
		if len(f.Evidence) == 0 || f.Evidence[0].Name != "429 answers" || f.Recommendation == "" {
			t.Errorf("report %v: evidence %+v", way, f.Evidence)
		}
		if way[0] != "-n" {
			continue
		}
		// The API server was read too: the level is a finding of its own, and the operator's
		// finding names it.
		if onLevel < 0 {
			t.Errorf("report %v: no server-throttling about priority level %s on the API server: %s", way, level, d.checks())
		}
		named := false
		for _, e := range f.Evidence {
			named = named || strings.HasPrefix(e.Name, "priority levels rejecting on apiserver") &&
				strings.Contains(e.Value, level+" ") && strings.Contains(e.Value, "FlowSchema "+level+", reason concurrency-limit")
		}
		if !named {
			t.Errorf("report %v: the operator's finding does not name priority level %s: %+v", way, level, f.Evidence)
		}
	}
}
