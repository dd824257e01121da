//go:build e2e

package e2e

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A real Prometheus scraping the reference operator: `report --prometheus` names the same top
// finding as the live scrape of the same operator, and names the target as the live scrape
// does, with the cluster label in front.
func TestReportFromPrometheusAgreesWithScrape(t *testing.T) {
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		t.Fatal("this test runs a real Prometheus: install Debian's prometheus package (hack/test-deps.sh does, as root)")
	}
	cases := []struct {
		scenario string
		want     string // the top finding's check; "" = no warning or critical finding
		warmup   time.Duration
	}{
		{"healthy", "", 10 * time.Second},
		{"saturated", "workers-saturated", 15 * time.Second},
		{"errors", "retry-storm", 15 * time.Second},
	}
	const window = 20 * time.Second
	for _, tc := range cases {
		t.Run(tc.scenario, func(t *testing.T) {
			ns := newNamespace(t)
			p := startBehindPod(t, podSpec{Namespace: ns, Name: "operator-" + tc.scenario,
				Labels: map[string]string{"app": "ctrldiag-demo"}, MemoryLimit: "150Mi",
				Ports: []podPort{{Name: "http-metrics", Port: 8080}},
				Command: func(listen map[int32]string) []string {
					return []string{filepath.Join(env.binDir, "kubectl-ctrldiag"), "operator", "run", "-n", ns,
						"--scenario", tc.scenario, "--metrics-bind-address", listen[8080], "--health-probe-bind-address", "0"}
				}})
			prom := startPrometheus(t, bin, fmt.Sprintf(`
  - job_name: operator
    static_configs:
      - targets: [%q]
        labels: {cluster: e2e, namespace: %q, pod: %q}
`, p.Listen[8080], ns, p.Name))
			// The warm-up, then a whole window of scrapes.
			time.Sleep(max(tc.warmup, 5*time.Second) + window + 3*time.Second)

			live, r := reportJSON(t, "-n", ns, "--include-apiserver=false")
			if r.Code != 0 {
				t.Fatalf("report -n %s:\n%s", ns, r)
			}
			fromProm, r := reportJSON(t, "--prometheus", prom, "--window", window.String(), "-n", ns, "-v", "1")
			if r.Code != 0 {
				t.Fatalf("report --prometheus:\n%s", r)
			}
			t.Logf("report --prometheus stderr: %s", r.Stderr)
			wantTarget := fmt.Sprintf("e2e/%s/%s:8080", ns, p.Name)
			if fromProm.Summary.Read != 1 || fromProm.Window != window.String() {
				t.Errorf("report --prometheus read %d targets over %q, want 1 over %s:\n%s", fromProm.Summary.Read, fromProm.Window, window, r)
			}
			for _, d := range []struct {
				name   string
				doc    reportDoc
				target string
			}{{"live", live, fmt.Sprintf("%s/%s:8080", ns, p.Name)}, {"prometheus", fromProm, wantTarget}} {
				top := ""
				for _, f := range d.doc.Findings {
					if f.Severity != "info" {
						top = f.Check
						if f.Target != d.target {
							t.Errorf("%s: the top finding is about %s, not %s", d.name, f.Target, d.target)
						}
						break
					}
				}
				if top != tc.want {
					t.Errorf("%s: top finding %q, want %q; all: %s", d.name, top, tc.want, d.doc.checks())
				}
			}
		})
	}
}

// startPrometheus runs prometheus on loopback with the scrape jobs given (YAML list items under
// scrape_configs), scraping every 2s, and returns its URL; it is stopped by pid, and its data
// removed, when the test ends.
func startPrometheus(t *testing.T, bin, jobs string) string {
	t.Helper()
	dir := t.TempDir()
	cfg := "global: {scrape_interval: 2s, scrape_timeout: 1s}\nscrape_configs:" + jobs
	if err := os.WriteFile(filepath.Join(dir, "prometheus.yml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	var logs bytes.Buffer
	cmd := exec.Command(bin, "--config.file="+filepath.Join(dir, "prometheus.yml"), "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr, "--log.level=warn")
	cmd.Stdout, cmd.Stderr = &logs, &logs
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("prometheus logs:\n%s", logs.String())
		}
	})
	url := "http://" + addr
	eventually(t, 30*time.Second, "prometheus ready", func() error {
		select {
		case <-done:
			t.Fatalf("prometheus exited:\n%s", logs.String())
		default:
		}
		resp, err := http.Get(url + "/-/ready")
		if err != nil {
			return err
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("ready: %s", resp.Status)
		}
		return nil
	})
	return url
}
