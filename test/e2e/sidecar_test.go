//go:build e2e

package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A pod whose sidecar was OOMKilled 30 days ago and restarted 4 times, while the operator in
// the container that serves the metrics is far under its limit: memory-pressure and restarts
// are info (a termination long past, of another container) and report raises no warning.
// The pod is kwok's, so the test writes the container statuses a kubelet would (status
// subresource); kwok's stages only act on pods that are Pending or not Ready, so they stay.
func TestReportSidecarOOMLongAgoIsInfo(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	p := startBehindPod(t, podSpec{Namespace: ns, Name: "operator", Labels: map[string]string{"app": "op"},
		MemoryLimit: "256Mi", Sidecar: "log-shipper", Ports: []podPort{{Name: "http-metrics", Port: 8080}},
		Command: func(l map[int32]string) []string {
			return []string{filepath.Join(env.binDir, "kubectl-ctrldiag"), "operator", "run", "-n", ns, "--scenario", "healthy",
				"--metrics-bind-address", l[8080], "--health-probe-bind-address", "0"}
		}})
	var pod struct {
		Status struct {
			ContainerStatuses []map[string]any `json:"containerStatuses"`
		} `json:"status"`
	}
	if err := json.Unmarshal([]byte(mustKubectl(t, "-n", ns, "get", "pod", p.Name, "-o", "json")), &pod); err != nil {
		t.Fatal(err)
	}
	ended := time.Now().Add(-30 * 24 * time.Hour).UTC()
	found := false
	for _, cs := range pod.Status.ContainerStatuses {
		if cs["name"] == "log-shipper" {
			found = true
			cs["restartCount"] = 4
			cs["lastState"] = map[string]any{"terminated": map[string]any{"exitCode": 137, "reason": "OOMKilled",
				"startedAt": ended.Add(-time.Hour).Format(time.RFC3339), "finishedAt": ended.Format(time.RFC3339)}}
		}
	}
	if !found {
		t.Fatalf("kwok wrote no status for the sidecar: %+v", pod.Status.ContainerStatuses)
	}
	patch, _ := json.Marshal(map[string]any{"status": map[string]any{"containerStatuses": pod.Status.ContainerStatuses}})
	mustKubectl(t, "-n", ns, "patch", "pod", p.Name, "--subresource=status", "--type=merge", "-p", string(patch))
	time.Sleep(5 * time.Second) // kwok had the time to rewrite it, were a stage to match
	sidecar := `{.status.containerStatuses[?(@.name=="log-shipper")]`
	got := mustKubectl(t, "-n", ns, "get", "pod", p.Name, "-o", "jsonpath="+sidecar+".restartCount}"+" "+sidecar+".lastState.terminated.reason}")
	if strings.TrimSpace(got) != "4 OOMKilled" {
		t.Fatalf("the sidecar's status did not stay as written (kwok rewrote it?): %q", got)
	}

	target := ns + "/" + p.Name + ":8080"
	var d reportDoc
	var r Result
	for _, way := range [][]string{{"-n", ns, "--include-apiserver=false"}, {"-n", ns, "--include-apiserver=false", "--interval", "0"}} {
		d, r = reportJSON(t, way...)
		if r.Code != 0 || d.Summary.Read != 1 {
			t.Fatalf("report %v:\n%s", way, r)
		}
		if d.Summary.Warning+d.Summary.Critical > 0 {
			t.Errorf("report %v: an OOMKill 30 days ago of a sidecar raised %s", way, d.checks())
		}
		var oom, restarts bool
		for _, f := range d.Findings {
			switch {
			case f.Check == "memory-pressure" && f.Target == target:
				oom = f.Severity == "info" && strings.Contains(f.Summary, "container log-shipper was OOMKilled 30 days ago (not the container that serves the metrics)")
			case f.Check == "restarts" && f.Target == target:
				restarts = f.Severity == "info" && strings.Contains(f.Summary, "container log-shipper restarted 4 times (last: OOMKilled, 30 days ago)")
			}
		}
		if !oom || !restarts {
			t.Errorf("report %v: want info memory-pressure and info restarts naming the sidecar, 30 days ago; got %s\n%+v", way, d.checks(), d.Findings)
		}
	}
	var pods struct {
		Pods []struct {
			Name            string
			Restarts        int
			LastTermination string
		} `json:"pods"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &pods); err != nil || len(pods.Pods) != 1 ||
		pods.Pods[0].Restarts != 4 || pods.Pods[0].LastTermination != "OOMKilled" {
		t.Errorf("pods section: want 4 restarts, last OOMKilled: %+v (%v)", pods.Pods, err)
	}
}
