//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// reportDoc is the part of `report -o json` the tests read.
type reportDoc struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Window     string `json:"window"`
	Summary    struct {
		Targets, Read, Critical, Warning int
		Verdict                          string
	} `json:"summary"`
	Pods []struct {
		Namespace, Name string
		Restarts        int32
		LastTermination string
	} `json:"pods"`
	Resources []struct {
		Target           string
		MemoryLimitBytes *float64
	} `json:"resources"`
	Objects       json.RawMessage                          `json:"objects"`
	ClusterRead   string                                   `json:"clusterRead"`
	ClusterAbsent string                                   `json:"clusterAbsent"`
	Backlog       []struct{ Target, Queue, Status string } `json:"backlog"`
	Findings      []struct {
		Code, Check, Severity, Target, Queue, Summary, Recommendation string
		Evidence                                                      []struct{ Name, Value, Threshold string }
	} `json:"findings"`
}

func reportJSON(t *testing.T, args ...string) (reportDoc, Result) {
	t.Helper()
	r := ctrldiag(t, append([]string{"report", "-o", "json"}, args...)...)
	var d reportDoc
	if r.Code == 0 || r.Code == 3 {
		if err := json.Unmarshal([]byte(r.Stdout), &d); err != nil {
			t.Fatalf("report -o json is not JSON: %v\n%s", err, r)
		}
	}
	return d, r
}

// statusBacks are the checks a queue status needs behind it in the findings.
var statusBacks = map[string][]string{
	"STUCK": {"stuck-worker"}, "FAILING": {"retry-storm", "persistent-failures", "lifetime-failures"}, "BACKLOG": {"backlog-growing", "backlog-high"},
	"SATURATED": {"workers-saturated", "priority-starvation", "under-provisioned"}, "SLOW": {"slow-reconcile"}, "RETRYING": {"retry-storm", "hot-loop"},
}

// disagreements lists the queues whose STATUS in section 2 and findings in section 6 tell
// different stories: OK with a warning or critical finding about the queue, or a status that
// no finding about the queue backs.
func (d reportDoc) disagreements() []string {
	var out []string
	for _, q := range d.Backlog {
		checks := map[string]bool{}
		serious := false
		for _, f := range d.Findings {
			if f.Target == q.Target && f.Queue == q.Queue {
				checks[f.Check] = true
				serious = serious || f.Severity != "info"
			}
		}
		backed := false
		for _, c := range statusBacks[q.Status] {
			backed = backed || checks[c]
		}
		switch {
		case q.Status == "OK" && serious:
			out = append(out, fmt.Sprintf("%s %s is OK but has findings %v", q.Target, q.Queue, checks))
		case statusBacks[q.Status] != nil && !backed:
			out = append(out, fmt.Sprintf("%s %s is %s but no finding says so (%v)", q.Target, q.Queue, q.Status, checks))
		}
	}
	return out
}

func (d reportDoc) checks() string {
	var s []string
	for _, f := range d.Findings {
		s = append(s, f.Severity+":"+f.Check+"@"+f.Target)
	}
	return strings.Join(s, ", ")
}

// Each scenario of the reference operator is diagnosed as itself: its own finding comes first,
// whether the operator is found by discovery or named with --url; a healthy operator raises no
// warning at all. The ground truth of the diagnosis.
//
// Runs alone, its scenarios side by side: report -n NS reads the API server too, which the
// other tests' load could make warn (a healthy operator must raise no warning at all), while
// the scenarios' own operators are light on it.
func TestReportDiagnosesEachScenario(t *testing.T) {
	cases := []struct {
		scenario string
		want     string // the top finding's check; "" = no warning or critical finding
		warmup   time.Duration
		interval string // the window, where the default 5s holds too few of the scenario's items
	}{
		{"healthy", "", 10 * time.Second, ""},
		// One 3s reconcile every 6s: a 5s window may finish none, and a p99 since the process
		// started is too little to judge; 13s finishes at least one.
		{"slow", "slow-reconcile", 15 * time.Second, "13s"},
		{"saturated", "workers-saturated", 15 * time.Second, ""},
		{"stuck", "stuck-worker", 42 * time.Second, ""}, // past stuckAfter (30s) at the first sample too
		{"errors", "retry-storm", 15 * time.Second, ""},
		{"hotloop", "hot-loop", 10 * time.Second, ""},
		{"throttled", "client-throttling", 15 * time.Second, ""},
		{"stale", "cache-sync-lag", 15 * time.Second, ""},
		{"memory", "memory-pressure", 20 * time.Second, ""},
		// Six of eleven objects fail and back off: the report names them and their reasons.
		// Read with --url there are no objects, and a 5s window may hold no failure at all:
		// persistent-failures or nothing, never a storm.
		{"failing", "persistent-failures", 20 * time.Second, ""},
		// 300 objects polled every 20-40s: ~10 reconciles/s of no work, but no hot loop.
		{"polling", "", 25 * time.Second, ""},
		{"starved", "priority-starvation", 15 * time.Second, ""},
		// Failed for the first 20s (a storm while it lasted), healed since: the counters since
		// start hold ~190 errors, the window none, every object is Ready again. Nothing to say.
		{"past-incident", "", 32 * time.Second, ""},
		// One object takes 31s a reconcile (past stuckAfter) among 150 fast ones per 5s: never
		// stuck (it ends within any window it was past 30s at the start of), and p99 stays fast
		// whether or not it ends in the window, so the answer does not depend on the timing.
		{"long-reconcile", "", 40 * time.Second, ""},
	}
	for _, tc := range cases {
		t.Run(tc.scenario, func(t *testing.T) {
			// stale's fault is its own 40 writes/s arriving faster than its slow cache works
			// them: beside the other operators the API server takes its writes more slowly,
			// the cache keeps up and there is, truly, no lag. It runs first, alone.
			if tc.scenario != "stale" {
				sub(t)
			}
			ns := newNamespace(t)
			p := operatorBehindPod(t, ns, "operator-"+tc.scenario, tc.scenario)
			time.Sleep(tc.warmup)
			operator := fmt.Sprintf("%s/%s:8080", ns, p.Name)
			url := "http://" + p.Listen[8080] + "/metrics"
			for _, way := range [][]string{{"-n", ns}, {"--url", url, "--memory-limit", "150Mi"}} {
				if tc.interval != "" {
					way = append(way, "--interval", tc.interval)
				}
				d, r := reportJSON(t, way...)
				if r.Code != 0 {
					t.Fatalf("report %v:\n%s", way, r)
				}
				if d.Summary.Read != d.Summary.Targets || d.Summary.Read == 0 {
					t.Errorf("report %v read %d of %d targets:\n%s", way, d.Summary.Read, d.Summary.Targets, r.Stderr)
				}
				top := ""
				for _, f := range d.Findings {
					if f.Severity != "info" {
						top = f.Check
						if tc.want != "" && f.Target != operator && f.Target != strings.TrimPrefix(url, "") {
							t.Errorf("report %v: the top finding is about %s, not the operator", way, f.Target)
						}
						break
					}
				}
				if len(d.Findings) > 0 {
					t.Logf("report %v: %s: %s", way, d.Findings[0].Check, d.Findings[0].Summary)
				}
				for _, dis := range d.disagreements() {
					t.Errorf("report %v: section 2 and the findings disagree: %s", way, dis)
				}
				viaURL := way[0] == "--url"
				if tc.scenario == "healthy" && !viaURL {
					// The operator's log is read, and says nothing to worry about.
					if why := logsOf(t, r).logOfPod(t, ns+"/"+p.Name).quiet(); why != "" {
						t.Errorf("report %v: the healthy operator's log: %s", way, why)
					}
				}
				switch {
				case tc.scenario == "failing" && viaURL:
					if top != "" && top != tc.want {
						t.Errorf("report %v: top finding %q, want %q or none; all: %s", way, top, tc.want, d.checks())
					}
				case top != tc.want:
					t.Errorf("report %v: top finding %q, want %q; all: %s", way, top, tc.want, d.checks())
				case tc.scenario == "failing":
					if s := d.Findings[0].Summary; !strings.Contains(s, "6 of 11 Workload objects failed: DependencyUnavailable (4), RepositoryNotFound (2)") {
						t.Errorf("report %v: the finding does not name the failed objects and reasons: %s", way, s)
					}
				}
				if top != "" && (len(d.Findings[0].Evidence) == 0 || d.Findings[0].Recommendation == "") {
					t.Errorf("report %v: the finding carries no evidence or recommendation: %+v", way, d.Findings[0])
				}
			}
			checkFirstScreen(t, tc.want != "", operator, append([]string{"report", "-n", ns}, intervalOf(tc.interval)...)...)
		})
	}
}

// intervalOf is --interval iv, or nothing for the default.
func intervalOf(iv string) []string {
	if iv == "" {
		return nil
	}
	return []string{"--interval", iv}
}

// checkFirstScreen runs a text report and checks its first 10 lines, in 80 columns: for a
// controller in trouble they name it and the change to make; for a healthy run, that it is.
func checkFirstScreen(t *testing.T, trouble bool, target string, args ...string) {
	t.Helper()
	r := ctrldiag(t, args...)
	if r.Code != 0 {
		t.Fatalf("%v:\n%s", args, r)
	}
	lines := strings.Split(r.Stdout, "\n")
	first := strings.Join(lines[:min(10, len(lines))], "\n")
	switch {
	case trouble && (!strings.Contains(first, "IN TROUBLE") || !strings.Contains(first, target) || !strings.Contains(first, "  change: ")):
		t.Errorf("%v: the first 10 lines do not name %s and the change to make:\n%s", args, target, first)
	case !trouble && !strings.Contains(first, "Healthy: "):
		t.Errorf("%v: the first 10 lines do not say the controllers are healthy:\n%s", args, first)
	}
	within80(t, strings.Join(args, " "), r.Stdout)
}

// kube-controller-manager and the API server at rest raise no warning, in every format, and
// --fail-on sets the exit code; in particular the API server, read with its FlowSchemas, is
// no cause (neither flowschema-waits nor request-latency).
// Runs alone: asserts kube-controller-manager and the API server raise no warning, which other
// tests' load would change.
func TestReportControlPlaneAtRest(t *testing.T) {
	// At rest: no namespace of earlier tests is still being torn down (kube-controller-manager
	// deleting thousands of objects is busy, and report rightly says so).
	eventually(t, 3*time.Minute, "terminating namespaces to be gone", func() error {
		out := mustKubectl(t, "get", "namespaces", "-o", `jsonpath={range .items[?(@.status.phase=="Terminating")]}{.metadata.name} {end}`)
		if strings.TrimSpace(out) != "" {
			return fmt.Errorf("terminating: %s", out)
		}
		return nil
	})
	time.Sleep(5 * time.Second)
	d, r := reportJSON(t, "-n", "kube-system")
	if r.Code != 0 || d.Kind != "Report" || d.APIVersion != "ctrldiag.dev/v1alpha1" || d.Summary.Read != 2 {
		t.Fatalf("report -n kube-system:\n%s", r)
	}
	if d.Summary.Critical+d.Summary.Warning > 0 {
		t.Errorf("the control plane at rest raised: %s", d.checks())
	}
	// The API server's page and the FlowSchemas were read (Read 2 above), so the causes on
	// the API server's side were judged, and none is told: no queue waits in API Priority and
	// Fairness (flowschema-waits), no resource the API server is slow for (request-latency).
	if strings.Contains(r.Stderr, "FlowSchemas were not read") {
		t.Errorf("the FlowSchemas were not read:\n%s", r.Stderr)
	}
	for _, f := range d.Findings {
		if f.Check == "flowschema-waits" || f.Check == "request-latency" {
			t.Errorf("the control plane at rest raised %s (%s) on %s: %s", f.Check, f.Code, f.Target, f.Summary)
		}
	}
	for _, dis := range d.disagreements() {
		t.Errorf("section 2 and the findings disagree: %s", dis)
	}
	if len(d.Pods) != 1 || d.Pods[0].Name != "kube-controller-manager-ctrldiag-node" {
		t.Errorf("pods section: %+v", d.Pods)
	}
	for _, format := range []string{"text", "yaml", "markdown"} {
		r := ctrldiag(t, "report", "-n", "kube-system", "--interval", "1s", "-o", format)
		if r.Code != 0 || !strings.Contains(r.Stdout, "kube-controller-manager-ctrldiag-node") {
			t.Errorf("-o %s:\n%s", format, r)
		}
	}
	r = ctrldiag(t, "report", "-n", "kube-system", "--interval", "1s", "--fail-on", "warning")
	if r.Code != 0 {
		t.Errorf("--fail-on warning with no warning must exit 0:\n%s", r)
	}
	within80(t, "report -n kube-system", r.Stdout)
	r = ctrldiag(t, "report", "-n", "kube-system", "--fail-on", "sometimes")
	if r.Code != 2 || !strings.Contains(r.Stderr, "--fail-on must be none, warning or critical") {
		t.Errorf("a bad --fail-on is a usage error:\n%s", r)
	}
}

// --fail-on critical exits 3 when a worker is stuck; the threshold flags change the verdict.
func TestReportFailOnAndThresholds(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	startBehindPod(t, podSpec{Namespace: ns, Name: "stuck", Labels: map[string]string{"app": "stuck"},
		Ports: []podPort{{Name: "metrics", Port: 8080}},
		Command: func(listen map[int32]string) []string {
			return []string{filepath.Join(env.binDir, "kubectl-ctrldiag"), "operator", "run", "-n", ns,
				"--scenario", "stuck", "--metrics-bind-address", listen[8080], "--health-probe-bind-address", "0"}
		}})
	time.Sleep(12 * time.Second)
	// Below the default 30 s nothing is stuck yet; a lower threshold says it is.
	d, r := reportJSON(t, "-n", ns, "--include-apiserver=false", "--fail-on", "critical", "--threshold", "stuckAfter=5s")
	if r.Code != 3 || len(d.Findings) == 0 || d.Findings[0].Check != "stuck-worker" {
		t.Fatalf("--fail-on critical with a stuck worker must exit 3 and say stuck-worker:\n%s", r)
	}
	for _, dis := range d.disagreements() {
		t.Errorf("section 2 and the findings disagree: %s", dis)
	}
	r = ctrldiag(t, "report", "-n", ns, "--include-apiserver=false", "--threshold", "stuckAfter=soon")
	if r.Code != 2 || !strings.Contains(r.Stderr, "stuckAfter") {
		t.Errorf("a bad threshold is a usage error:\n%s", r)
	}
	// queues judges with the same thresholds: the same flag makes the queue STUCK there too,
	// and the default leaves it as the findings leave it, not stuck.
	for _, tc := range []struct {
		args  []string
		stuck bool
	}{{[]string{"--threshold", "stuckAfter=5s"}, true}, {[]string{"--threshold", "stuckAfter=1h"}, false}} {
		l, r := queuesJSON(t, append([]string{"-n", ns, "--interval", "1s"}, tc.args...)...)
		if r.Code != 0 || len(l.Items) == 0 {
			t.Fatalf("queues %v:\n%s", tc.args, r)
		}
		if got := l.Items[0].Status == "STUCK"; got != tc.stuck {
			t.Errorf("queues %v: top row %s %s (%s), want stuck=%v", tc.args, l.Items[0].Queue, l.Items[0].Status, l.Items[0].Reason, tc.stuck)
		}
	}
}

// within80 fails t for each line of text wider than 80 columns, unless it is one name alone.
func within80(t *testing.T, what, text string) {
	t.Helper()
	for _, line := range strings.Split(text, "\n") {
		if n := utf8.RuneCountInString(line); n > 80 && len(strings.Fields(line)) > 1 {
			t.Errorf("%s: a line of %d columns: %q", what, n, line)
		}
	}
}
