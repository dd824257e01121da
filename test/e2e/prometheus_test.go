//go:build e2e

package e2e

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/promserver"
)

// A real Prometheus and a real VictoriaMetrics scraping the reference operator: `report
// --prometheus` names, from each, the same top finding as the live scrape of the same
// operator, and names the target as the live scrape does, with the cluster label in front.
func TestReportFromPrometheusAgreesWithScrape(t *testing.T) {
	crowd(t)
	bins := map[string]string{}
	for _, b := range promBackends {
		bin, err := exec.LookPath(b)
		if err != nil {
			t.Fatalf("this test runs a real %s: install Debian's %s package (hack/test-deps.sh does, as root)", b, b)
		}
		bins[b] = bin
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
			sub(t)
			ns := newNamespace(t)
			p := operatorBehindPod(t, ns, "operator-"+tc.scenario, tc.scenario)
			jobs := fmt.Sprintf(`
  - job_name: operator
    static_configs:
      - targets: [%q]
        labels: {cluster: e2e, namespace: %q, pod: %q}
`, p.Listen[8080], ns, p.Name)
			urls := map[string]string{}
			for _, b := range promBackends {
				urls[b] = startPromBackend(t, b, bins[b], jobs)
			}
			// The warm-up, then a whole window of scrapes.
			time.Sleep(max(tc.warmup, 5*time.Second) + window + 3*time.Second)

			live, r := reportJSON(t, "-n", ns, "--include-apiserver=false")
			if r.Code != 0 {
				t.Fatalf("report -n %s:\n%s", ns, r)
			}
			type read struct {
				name   string
				doc    reportDoc
				target string
			}
			reads := []read{{"live", live, fmt.Sprintf("%s/%s:8080", ns, p.Name)}}
			wantTarget := fmt.Sprintf("e2e/%s/%s:8080", ns, p.Name)
			for _, b := range promBackends {
				fromProm, r := reportJSON(t, "--prometheus", urls[b], "--window", window.String(), "-n", ns, "-v", "1")
				if r.Code != 0 {
					t.Fatalf("report --prometheus (%s):\n%s", b, r)
				}
				t.Logf("report --prometheus (%s) stderr: %s", b, r.Stderr)
				if fromProm.Summary.Read != 1 || fromProm.Window != window.String() {
					t.Errorf("report --prometheus (%s) read %d targets over %q, want 1 over %s:\n%s", b, fromProm.Summary.Read, fromProm.Window, window, r)
				}
				reads = append(reads, read{b, fromProm, wantTarget})
				if tc.scenario == "healthy" {
					clusterSectionsFilled(t, b, live, fromProm, ns, p.Name, wantTarget)
				}
			}
			if tc.scenario == "healthy" {
				// A window that ended more than one window ago: the cluster now is not the
				// cluster then, so its sections are said absent, and the report stands.
				past, r := reportJSON(t, "--prometheus", urls["prometheus"], "--window", "10s", "--at", "-15s", "-n", ns)
				if r.Code != 0 || past.Summary.Read != 1 {
					t.Fatalf("report --prometheus --at -15s: exit %d, %d targets read, want 0 and 1:\n%s", r.Code, past.Summary.Read, r)
				}
				if !strings.Contains(past.ClusterAbsent, "ago, and the cluster can only be read as it is now") || len(past.Pods) != 0 ||
					string(past.Objects) != "null" || past.ClusterRead != "" {
					t.Errorf("report --prometheus --at -15s: clusterAbsent %q, clusterRead %q, %d pods, objects %s; want the cluster said absent and nothing read",
						past.ClusterAbsent, past.ClusterRead, len(past.Pods), past.Objects)
				}
			}
			for _, d := range reads {
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

// promBackends are the real servers of the Prometheus API the e2e tests read: Prometheus, and
// a single-node VictoriaMetrics as a second, different one (Debian packages of those names).
var promBackends = []string{"prometheus", "victoria-metrics"}

// startPromBackend starts the backend named (see promBackends) scraping the jobs given.
func startPromBackend(t *testing.T, name, bin, jobs string) string {
	t.Helper()
	if name == "victoria-metrics" {
		return promserver.VictoriaMetrics(t, bin, scrapeConfig(jobs))
	}
	return promserver.Prometheus(t, bin, scrapeConfig(jobs))
}

// scrapeConfig is a Prometheus configuration scraping the jobs every 2s.
func scrapeConfig(jobs string) string {
	return "global: {scrape_interval: 2s, scrape_timeout: 1s}\nscrape_configs:" + jobs
}

// clusterSectionsFilled checks that `report --prometheus` about now, with the kubeconfig at the
// cluster the series were scraped from, fills the pod sections as the live report does: the
// operator's pod and its restarts in section 1, its memory limit in section 5, the objects read.
func clusterSectionsFilled(t *testing.T, backend string, live, fromProm reportDoc, ns, pod, target string) {
	t.Helper()
	if fromProm.ClusterAbsent != "" || fromProm.ClusterRead == "" || string(fromProm.Objects) == "null" {
		t.Errorf("%s: clusterAbsent %q, clusterRead %q, objects %s: want the kubeconfig's cluster read", backend, fromProm.ClusterAbsent, fromProm.ClusterRead, fromProm.Objects)
	}
	restarts := func(d reportDoc) (int32, bool) {
		for _, p := range d.Pods {
			if p.Namespace == ns && p.Name == pod {
				return p.Restarts, true
			}
		}
		return 0, false
	}
	wantRestarts, ok := restarts(live)
	if !ok {
		t.Fatalf("the live report lists no pod %s/%s: %+v", ns, pod, live.Pods)
	}
	if got, ok := restarts(fromProm); !ok || got != wantRestarts {
		t.Errorf("%s: pod %s/%s listed %v with %d restarts, want listed with %d as in the live report: %+v", backend, ns, pod, ok, got, wantRestarts, fromProm.Pods)
	}
	limit := func(d reportDoc, id string) float64 {
		for _, r := range d.Resources {
			if r.Target == id && r.MemoryLimitBytes != nil {
				return *r.MemoryLimitBytes
			}
		}
		return 0
	}
	const want = 150 << 20 // operatorBehindPod's 150Mi
	if got, liveGot := limit(fromProm, target), limit(live, fmt.Sprintf("%s/%s:8080", ns, pod)); got != want || liveGot != want {
		t.Errorf("%s: memory limit of %s %.0f (live report %.0f), want %d from the pod", backend, target, got, liveGot, want)
	}
}
