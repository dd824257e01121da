//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/alerts"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/scenario"
)

// TestRulesAgreeWithTheReport loads the rules of `kubectl ctrldiag rules` into a real
// Prometheus (Debian's prometheus package, hack/test-deps.sh) that scrapes the reference
// operator in a scenario, and checks that the alert that fires is the one for the report's
// top finding, and that at rest (healthy, polling at scale, once their start-up has left the
// window) none fires. Rates run over a 30s
// window and every for: is 0s, so that a scenario shows within a minute or two.
//
// Runs calm (gate_test.go), its own cases side by side: its scenarios at rest must leave their
// start-up burst behind within the settle time, which beside the crowd they did not (polling,
// seen).
func TestRulesAgreeWithTheReport(t *testing.T) {
	calm(t)
	if _, err := exec.LookPath("prometheus"); err != nil {
		t.Fatal("prometheus is not on PATH: install Debian's prometheus package (hack/test-deps.sh)")
	}
	cases := []struct {
		scenario, want string // want: the alert, for the report's top finding; "" = none fires
		// within: how long the alert has to fire; at rest, how long none may fire after the
		// start-up has left the window.
		within time.Duration
	}{
		{"healthy", "", 45 * time.Second},
		{"polling", "", 45 * time.Second},
		{"saturated", "CtrlDiagWorkersSaturated", 2 * time.Minute},
		{"stuck", "CtrlDiagWorkerStuck", 2 * time.Minute}, // stuckAfter 30s, then a window more
		{"errors", "CtrlDiagRetryStorm", 2 * time.Minute},
		{"hotloop", "CtrlDiagHotLoop", 2 * time.Minute},
		{"throttled", "CtrlDiagClientThrottling", 2 * time.Minute},
		{"stale", "CtrlDiagCacheSyncLag", 2 * time.Minute},
		{"starved", "CtrlDiagPriorityStarvation", 2 * time.Minute},
	}
	const settle = 36 * time.Second // the 30s window, and three scrapes and evaluations
	args := []string{"rules", "--window", "30s"}
	s, err := alerts.Build(alerts.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	checks := map[string]bool{}
	for _, a := range s.Alerts {
		if !checks[a.Check] {
			checks[a.Check] = true
			args = append(args, "--for", a.Check+"=0s")
		}
	}
	for _, tc := range cases {
		t.Run(tc.scenario, func(t *testing.T) {
			sub(t)
			ns := newNamespace(t)
			p := operatorBehindPod(t, ns, "operator-"+tc.scenario, tc.scenario)
			// A copy: the subtests run in parallel and must not append into args' shared array.
			r := ctrldiag(t, slices.Concat(args, []string{"--matchers", fmt.Sprintf(`{namespace=%q}`, ns)})...)
			if r.Code != 0 {
				t.Fatalf("rules:\n%s", r)
			}
			prom := startRulesPrometheus(t, r.Stdout, p.Listen[8080], ns, p.Name)

			if tc.want == "" {
				// At rest is after the start-up: an operator creating its objects and reconciling
				// them all at once is rightly busy (polling's 300 status writes throttle its
				// client and fill its workers for some seconds, longer on a busy API server);
				// once every object is reconciled, the 30s window must pass that too.
				sc, err := scenario.Get(tc.scenario)
				if err != nil {
					t.Fatal(err)
				}
				workloadsObserved(t, ns, sc.Objects, 2*time.Minute)
				time.Sleep(settle)
			}
			deadline := time.Now().Add(tc.within)
			var firing []string
			for time.Now().Before(deadline) {
				firing = prom.firing(t)
				if tc.want != "" && contains(firing, tc.want) {
					break
				}
				if tc.want == "" && len(firing) > 0 {
					break
				}
				time.Sleep(3 * time.Second)
			}
			if tc.want == "" {
				if len(firing) > 0 {
					t.Fatalf("at rest, alerts fire: %v", firing)
				}
				return
			}
			if !contains(firing, tc.want) {
				t.Fatalf("%s did not fire within %s; firing: %v", tc.want, tc.within, firing)
			}
			d, rr := reportJSON(t, "--url", "http://"+p.Listen[8080]+"/metrics", "--memory-limit", "150Mi")
			if rr.Code != 0 {
				t.Fatalf("report:\n%s", rr)
			}
			top := ""
			for _, f := range d.Findings {
				if f.Severity != "info" {
					top = f.Check
					break
				}
			}
			for _, a := range s.Alerts {
				if a.Name == tc.want && a.Check != top {
					t.Errorf("%s fires for %s, but the report's top finding is %q (all: %s)", tc.want, a.Check, top, d.checks())
				}
			}
			t.Logf("firing: %v; report: %s", firing, d.checks())
		})
	}
}

// prometheus is a Prometheus server started for one test.
type prometheus struct{ url string }

// startRulesPrometheus runs prometheus with rules, scraping the operator at target every 2s with
// the labels the Prometheus Operator would give it, and waits until it is ready: until its
// storage is open, Prometheus answers every API call with 503 "Service Unavailable".
func startRulesPrometheus(t *testing.T, rules, target, ns, pod string) prometheus {
	t.Helper()
	dir := t.TempDir()
	config := fmt.Sprintf(`global: {scrape_interval: 2s, evaluation_interval: 2s}
rule_files: [rules.yaml]
scrape_configs:
  - job_name: op
    static_configs:
      - targets: [%q]
        labels: {namespace: %q, pod: %q, container: manager}
`, target, ns, pod)
	for name, body := range map[string]string{"prometheus.yml": config, "rules.yaml": rules} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ip := allocatePodIP(t)
	listen := net.JoinHostPort(ip, "9090")
	proc := startLocal(t, "prometheus-"+pod, ip, []string{"prometheus", "--config.file=" + filepath.Join(dir, "prometheus.yml"),
		"--storage.tsdb.path=" + filepath.Join(dir, "data"), "--web.listen-address=" + listen})
	proc.waitListening(t, listen)
	p := prometheus{url: "http://" + listen}
	eventually(t, 60*time.Second, "prometheus at "+listen+" to be ready", func() error {
		resp, err := http.Get(p.url + "/-/ready")
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("/-/ready: %s", resp.Status)
		}
		return nil
	})
	return p
}

// firing are the names of the alerts firing now, sorted.
func (p prometheus) firing(t *testing.T) []string {
	t.Helper()
	resp, err := http.Get(p.url + "/api/v1/alerts")
	if err != nil {
		t.Fatalf("prometheus alerts: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		t.Fatalf("prometheus alerts: %s: %q", resp.Status, b)
	}
	var body struct {
		Data struct {
			Alerts []struct {
				State  string            `json:"state"`
				Labels map[string]string `json:"labels"`
			} `json:"alerts"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatalf("prometheus alerts: %v", err)
	}
	var out []string
	for _, a := range body.Data.Alerts {
		if a.State == "firing" && !contains(out, a.Labels["alertname"]) {
			out = append(out, a.Labels["alertname"])
		}
	}
	sort.Strings(out)
	return out
}

// rules --selector, the old name of --matchers, still gives the same rules for one release,
// with a warning on stderr only (the rule file on stdout stays clean), and is not in -h.
func TestRulesSelectorIsADeprecatedAlias(t *testing.T) {
	crowd(t)
	want := ctrldiag(t, "rules", "--matchers", `{namespace="ops"}`)
	old := ctrldiag(t, "rules", "--selector", `{namespace="ops"}`)
	if want.Code != 0 || old.Code != 0 || old.Stdout != want.Stdout || !strings.Contains(want.Stdout, `namespace="ops"`) {
		t.Errorf("--selector should print what --matchers prints:\n%s\n%s", want, old)
	}
	if !strings.Contains(old.Stderr, "--selector is deprecated") || !strings.Contains(old.Stderr, "use --matchers") || want.Stderr != "" {
		t.Errorf("want a deprecation warning on stderr for --selector only:\n%s", old)
	}
	if help := ctrldiag(t, "rules", "-h"); strings.Contains(help.Stdout, "--selector") || !strings.Contains(help.Stdout, "--matchers") {
		t.Errorf("rules -h should show --matchers and not --selector:\n%s", help.Stdout)
	}
}
