//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// kube-prometheus' way: Prometheus runs in the cluster behind a Service, and `report
// --prometheus svc/NS/NAME:PORT` reaches it through the API server's service proxy with the
// kubeconfig's credentials, no port-forward: it names the saturated operator that Prometheus
// scrapes, with the cluster label in front, as the live scrape does.
func TestReportFromPrometheusThroughServiceProxy(t *testing.T) {
	crowd(t)
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		t.Fatal("this test runs a real Prometheus: install Debian's prometheus package (hack/test-deps.sh does, as root)")
	}
	const window = 20 * time.Second
	ns := newNamespace(t)
	op := operatorBehindPod(t, ns, "operator-saturated", "saturated")
	dir := t.TempDir()
	cfg := scrapeConfig(fmt.Sprintf(`
  - job_name: operator
    static_configs:
      - targets: [%q]
        labels: {cluster: e2e, namespace: %q, pod: %q}
`, op.Listen[8080], ns, op.Name))
	if err := os.WriteFile(filepath.Join(dir, "prometheus.yml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	startBehindPod(t, podSpec{Namespace: ns, Name: "prometheus-0", Labels: map[string]string{"app": "prometheus-e2e"},
		Ports: []podPort{{Name: "web", Port: 9090}},
		Command: func(listen map[int32]string) []string {
			return []string{bin, "--config.file=" + filepath.Join(dir, "prometheus.yml"), "--storage.tsdb.path=" + filepath.Join(dir, "data"),
				"--web.listen-address=" + listen[9090], "--log.level=warn"}
		}})
	apply(t, fmt.Sprintf(`apiVersion: v1
kind: Service
metadata: {name: prometheus-k8s, namespace: %s}
spec:
  selector: {app: prometheus-e2e}
  ports: [{name: web, port: 9090, targetPort: web}]
`, ns))
	// The saturated operator's warm-up, then a whole window of scrapes.
	time.Sleep(15*time.Second + window + 3*time.Second)

	svc := "svc/" + ns + "/prometheus-k8s:9090"
	var doc reportDoc
	eventually(t, 30*time.Second, "report through "+svc, func() error {
		d, r := reportJSON(t, "--prometheus", svc, "--window", window.String(), "-n", ns, "-v", "1")
		if r.Code != 0 {
			return fmt.Errorf("report --prometheus %s:\n%s", svc, r) // the endpoints may not be there yet
		}
		doc = d
		return nil
	})
	if doc.Summary.Read != 1 {
		t.Errorf("read %d targets, want 1", doc.Summary.Read)
	}
	want := fmt.Sprintf("e2e/%s/%s:8080", ns, op.Name)
	top := ""
	for _, f := range doc.Findings {
		if f.Severity != "info" {
			top = f.Check
			if f.Target != want {
				t.Errorf("the top finding is about %s, not %s", f.Target, want)
			}
			break
		}
	}
	if top != "workers-saturated" {
		t.Errorf("top finding %q, want workers-saturated; all: %s", top, doc.checks())
	}

	// A service that does not exist: the API server's words.
	r := ctrldiag(t, "queues", "--prometheus", "svc/"+ns+"/nope:9090", "-n", ns)
	if r.Code == 0 || !strings.Contains(r.Stderr, `services "nope" not found`) {
		t.Errorf("queues through a missing service:\n%s", r)
	}
}
