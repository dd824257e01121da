//go:build e2e

package e2e

import (
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The plugin is found by kubectl on PATH, with no warning about shadowing or permissions.
func TestKubectlFindsThePlugin(t *testing.T) {
	crowd(t)
	r := kubectl(t, "plugin", "list")
	if r.Code != 0 {
		t.Fatalf("kubectl plugin list:\n%s", r)
	}
	want := filepath.Join(env.binDir, "kubectl-ctrldiag")
	if !strings.Contains(r.Stdout, want) {
		t.Errorf("kubectl plugin list does not show %s:\n%s", want, r)
	}
	if strings.Contains(strings.ToLower(r.Stderr), "warning") {
		t.Errorf("kubectl plugin list warns:\n%s", r.Stderr)
	}
}

func TestVersion(t *testing.T) {
	crowd(t)
	r := ctrldiag(t, "version")
	if r.Code != 0 || !strings.Contains(r.Stdout, e2eVersion) || !strings.Contains(r.Stdout, "commit e2e") {
		t.Fatalf("kubectl ctrldiag version does not show the stamped version %s:\n%s", e2eVersion, r)
	}
	r = ctrldiag(t, "version", "-o", "json")
	var info struct{ Version, Commit, BuildDate string }
	if err := json.Unmarshal([]byte(r.Stdout), &info); err != nil || r.Code != 0 {
		t.Fatalf("version -o json: %v\n%s", err, r)
	}
	if info.Version != e2eVersion || info.Commit != "e2e" || info.BuildDate != "1970-01-01T00:00:00Z" {
		t.Errorf("version -o json = %+v", info)
	}
}

// Flag errors are one line and a pointer to -h, exit 2, as in kubectl; help reads
// `kubectl ctrldiag`.
func TestUsageAndHelp(t *testing.T) {
	crowd(t)
	r := ctrldiag(t, "queues", "--no-such-flag")
	if r.Code != 2 || r.Stdout != "" ||
		r.Stderr != "error: unknown flag: --no-such-flag\nSee 'kubectl ctrldiag queues -h' for help and examples.\n" {
		t.Errorf("an unknown flag should say so in one line, point to -h and exit 2:\n%s", r)
	}
	r = ctrldiag(t, "version", "-o", "xml")
	if r.Code != 2 || !strings.Contains(r.Stderr, `unknown output format "xml"`) {
		t.Errorf("a bad -o value should exit 2 and name the value:\n%s", r)
	}
	r = ctrldiag(t, "--help")
	if r.Code != 0 || !strings.Contains(r.Stdout, "kubectl ctrldiag [command]") || !strings.Contains(r.Stdout, "--kubeconfig") ||
		!strings.Contains(r.Stdout, "-A, --all-namespaces") {
		t.Errorf("help should read `kubectl ctrldiag` and list the kubeconfig flags:\n%s", r)
	}
}

// A process behind a pod is reached by the API-server proxy and by port-forward (websockets and
// the SPDY fallback): the plumbing every scraping feature stands on.
func TestProcessBehindPodIsReachable(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	page := filepath.Join(env.root, "test/e2e/testdata/kube-controller-manager.prom")
	want, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	p := startBehindPod(t, podSpec{
		Namespace: ns, Name: "metrics-server",
		Labels: map[string]string{"app": "metrics-server"},
		Ports:  []podPort{{Name: "metrics", Port: 8080}},
		Command: func(listen map[int32]string) []string {
			return []string{env.servepage, "--listen", listen[8080], "--file", page}
		},
	})

	t.Run("proxy", func(t *testing.T) {
		got := mustKubectl(t, "get", "--raw", fmt.Sprintf("/api/v1/namespaces/%s/pods/%s:8080/proxy/metrics", ns, p.Name))
		if got != string(want) {
			t.Errorf("the proxy returned %d bytes, want the %d bytes of %s", len(got), len(want), page)
		}
	})
	for _, ws := range []bool{true, false} {
		t.Run(fmt.Sprintf("port-forward/websockets=%t", ws), func(t *testing.T) {
			local := portForward(t, ns, "pod/"+p.Name, 8080, ws)
			got := httpGet(t, "http://127.0.0.1:"+local+"/metrics")
			if got != string(want) {
				t.Errorf("port-forward returned %d bytes, want %d", len(got), len(want))
			}
		})
	}
}

// kube-controller-manager appears as kubeadm shows it, and its real /metrics (HTTPS, 10257) is
// reachable through its kube-system pod by proxy and by port-forward.
func TestKubeControllerManagerPod(t *testing.T) {
	crowd(t)
	const pod = "kube-controller-manager-ctrldiag-node"
	out := mustKubectl(t, "-n", "kube-system", "get", "pod", "-l", "component=kube-controller-manager,tier=control-plane",
		"-o", `jsonpath={range .items[*]}{.metadata.name} {.spec.hostNetwork} {.status.podIP} {.status.phase} {.status.conditions[?(@.type=="Ready")].status}{"\n"}{end}`)
	if strings.TrimSpace(out) != pod+" true 198.18.0.1 Running True" {
		t.Fatalf("kube-system pods with component=kube-controller-manager: %q", out)
	}
	queue := regexp.MustCompile(`(?m)^workqueue_depth\{name="([^"]+)"\}`)
	check := func(t *testing.T, page string) {
		t.Helper()
		names := map[string]bool{}
		for _, m := range queue.FindAllStringSubmatch(page, -1) {
			names[m[1]] = true
		}
		if len(names) < 40 || !names["deployment"] || !names["replicaset"] {
			t.Errorf("want kube-controller-manager's ~50 workqueues (deployment, replicaset, ...), got %d: %v", len(names), names)
		}
	}
	t.Run("proxy", func(t *testing.T) {
		check(t, mustKubectl(t, "get", "--raw", "/api/v1/namespaces/kube-system/pods/https:"+pod+":10257/proxy/metrics"))
	})
	t.Run("port-forward", func(t *testing.T) {
		local := portForward(t, "kube-system", "pod/"+pod, 10257, true)
		check(t, httpGet(t, "https://127.0.0.1:"+local+"/metrics"))
	})
}

// httpGet fetches url (TLS verification off: the servers are the test's own) and fails the test
// on any error or a status other than 200.
func httpGet(t *testing.T, url string) string {
	t.Helper()
	c := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // test servers
	}}
	resp, err := c.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v\n%s", url, resp.StatusCode, err, tail(string(b), 5))
	}
	return string(b)
}
