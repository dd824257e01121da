//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"
)

// logsDoc is the report's logs, as -o json has them.
type logsDoc struct {
	Logs []logEntry `json:"logs"`
}

// logOfPod is the report's log of pod ("ns/name"); it fails the test when there is none.
func (d logsDoc) logOfPod(t *testing.T, pod string) logEntry {
	t.Helper()
	for _, l := range d.Logs {
		if l.Pod == pod {
			return l
		}
	}
	t.Fatalf("the report read no log of pod %s: %+v", pod, d.Logs)
	return logEntry{}
}

// logEntry is one log of logsDoc.
type logEntry struct {
	Target    string `json:"target"`
	Pod       string `json:"pod"`
	Container string `json:"container"`
	Lines     int    `json:"lines"`
	Failures  []struct {
		Controller, Object, Error string
		Count                     int
	} `json:"failures"`
	Throttling *struct {
		Count          int     `json:"count"`
		LongestSeconds float64 `json:"longestSeconds"`
	} `json:"throttling"`
	Panics            []json.RawMessage `json:"panics"`
	LeaderLost        json.RawMessage   `json:"leaderLost"`
	CacheSyncTimeouts []json.RawMessage `json:"cacheSyncTimeouts"`
	Note              string            `json:"note"`
}

// quiet says what a healthy controller's log should not hold, "" when it holds none of it.
func (l logEntry) quiet() string {
	switch {
	case l.Note != "" || l.Lines == 0:
		return fmt.Sprintf("no log read (%d lines, note %q)", l.Lines, l.Note)
	case len(l.Failures) > 0 || l.Throttling != nil || len(l.Panics) > 0 || len(l.CacheSyncTimeouts) > 0 ||
		len(l.LeaderLost) > 0 && string(l.LeaderLost) != "null":
		return fmt.Sprintf("the log raises something: %+v", l)
	}
	return ""
}

// logsOf decodes the report's logs.
func logsOf(t *testing.T, r Result) logsDoc {
	t.Helper()
	var d logsDoc
	if err := json.Unmarshal([]byte(r.Stdout), &d); err != nil {
		t.Fatalf("report -o json is not JSON: %v\n%s", err, r)
	}
	return d
}

// A user who may read everything report needs but pods/log gets the report, exit 0, and the
// Log section's note names the permission; nothing of the log is read. --no-logs reads none.
func TestReportLogForbidden(t *testing.T) {
	crowd(t)
	kubeconfig := restrictedReader(t, "ctrldiag-nologs", "pods/log")
	r := reportAs(t, kubeconfig)
	d := logsOf(t, r)
	if len(d.Logs) != 1 {
		t.Fatalf("want the log of kube-controller-manager's pod, got %+v\n%s", d.Logs, r.Stdout)
	}
	l := d.Logs[0]
	if !strings.HasPrefix(l.Pod, "kube-system/kube-controller-manager") || l.Note != "not read: needs RBAC verb get on pods/log in namespace kube-system" ||
		l.Lines != 0 || len(l.Failures) != 0 {
		t.Errorf("log read without the permission: %+v", l)
	}
	txt := runAs(t, kubeconfig, "kubectl", "ctrldiag", "report", "-n", "kube-system", "--interval", "1s")
	flat := strings.Join(strings.Fields(txt.Stdout), " ") // the section's note is wrapped
	if txt.Code != 0 || !strings.Contains(flat, "LOG: WHAT THE CONTROLLERS' LOGS SAY") ||
		!strings.Contains(flat, "not read: needs RBAC verb get on pods/log in namespace kube-system") {
		t.Errorf("the text report does not name the permission:\n%s", txt)
	}
	none := runAs(t, kubeconfig, "kubectl", "ctrldiag", "report", "-n", "kube-system", "--interval", "1s", "--no-logs", "-o", "json")
	if none.Code != 0 || len(logsOf(t, none).Logs) != 0 {
		t.Errorf("--no-logs read a log:\n%s", none)
	}
}

// The operator's log reaches `kubectl logs` (kwok serves the CRI file its process writes), and
// report reads it: the settings controller fails on three ConfigMaps, a kind with no status,
// and only the log names them and their errors: the Log section lists them and CD213 cites
// them, with no storm. So in every shape the operator logs in as controllers people run do:
// klog's text, kubebuilder's zap console, logr's funcr and slog's text.
func TestReportLogNamesFailingConfigMaps(t *testing.T) {
	crowd(t)
	for _, format := range []string{"klog", "zap-console", "funcr", "slog-text"} {
		t.Run(format, func(t *testing.T) {
			sub(t)
			logNamesFailingConfigMaps(t, format)
		})
	}
}

func logNamesFailingConfigMaps(t *testing.T, format string) {
	ns := newNamespace(t)
	p := operatorBehindPod(t, ns, "operator", "failing-configmaps", "--log-format", format)
	eventually(t, 60*time.Second, "kubectl logs to show the operator's failures", func() error {
		r := kubectl(t, "logs", "-n", ns, p.Name)
		if r.Code != 0 || !strings.Contains(r.Stdout, "starting reference operator") ||
			!strings.Contains(r.Stdout, "Reconciler error") || !strings.Contains(r.Stdout, "settings-004") {
			return fmt.Errorf("kubectl logs:\n%s", tail(r.String(), 10))
		}
		return nil
	})
	time.Sleep(10 * time.Second)
	d, r := reportJSON(t, "-n", ns, "--interval", "10s")
	if r.Code != 0 {
		t.Fatalf("report:\n%s", r)
	}
	l := logsOf(t, r).logOfPod(t, ns+"/"+p.Name)
	if l.Note != "" || l.Lines == 0 || l.Container != "main" {
		t.Fatalf("the log was not read: %+v", l)
	}
	var named []string
	for _, f := range l.Failures {
		if f.Controller != "settings" || f.Count < 1 {
			t.Errorf("a failure of another controller, or without a count: %+v", f)
			continue
		}
		named = append(named, f.Object+": "+f.Error)
	}
	sort.Strings(named)
	want := []string{
		ns + "/settings-001: parse config.yaml: yaml: line 3: mapping values are not allowed in this context",
		ns + "/settings-004: validate settings-004: replicas must be a number, got three",
		ns + "/settings-006: validate settings-006: replicas must be a number, got three",
	}
	if strings.Join(named, "\n") != strings.Join(want, "\n") {
		t.Errorf("the log names\n%s\nwant\n%s", strings.Join(named, "\n"), strings.Join(want, "\n"))
	}
	found := false
	for _, f := range d.Findings {
		if f.Queue != "settings" {
			continue
		}
		if f.Check == "retry-storm" {
			t.Errorf("a storm out of ~1 failure/s: %s", f.Summary)
		}
		if f.Check != "persistent-failures" {
			continue
		}
		found = true
		cited := 0
		for _, e := range f.Evidence {
			if e.Name == "log: Reconciler error" && strings.HasPrefix(e.Value, ns+"/settings-00") {
				cited++
			}
		}
		if !strings.Contains(f.Summary, "the log names "+ns+"/settings-00") || strings.Contains(f.Summary, "unknown") || cited != 3 {
			t.Errorf("CD213 does not name the objects from the log (%d cited): %s %+v", cited, f.Summary, f.Evidence)
		}
	}
	if !found {
		t.Errorf("no persistent-failures on the settings controller; findings: %s", d.checks())
	}
}

// Throttled by its own client in a process that exports no rate-limiter metric (as
// controller-runtime by default): client-go's "Waited for ..." lines in the log are the only
// evidence, and CD205 fires from them.
func TestReportLogThrottlingWithoutTheMetric(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	p := operatorBehindPod(t, ns, "operator", "throttled-unmetered", "-v=2")
	if fam := scrapeOperator(t, ns, p.Name)["rest_client_rate_limiter_duration_seconds"]; fam != nil {
		t.Fatalf("the operator exports the rate-limiter metric")
	}
	time.Sleep(15 * time.Second)
	d, r := reportJSON(t, "-n", ns, "--interval", "10s")
	if r.Code != 0 {
		t.Fatalf("report:\n%s", r)
	}
	l := logsOf(t, r).logOfPod(t, ns+"/"+p.Name)
	if l.Note != "" || l.Throttling == nil || l.Throttling.Count < 3 || l.Throttling.LongestSeconds < 1 {
		t.Fatalf("the log's throttling waits were not read: %+v", l)
	}
	var f *struct {
		Code, Check, Severity, Target, Queue, Summary, Recommendation string
		Evidence                                                      []struct{ Name, Value, Threshold string }
	}
	for i := range d.Findings {
		if d.Findings[i].Check == "client-throttling" {
			f = &d.Findings[i]
		}
	}
	if f == nil {
		t.Fatalf("no client-throttling finding; findings: %s", d.checks())
	}
	if f.Code != "CD205" || f.Target != ns+"/"+p.Name+":8080" || !strings.Contains(f.Summary, "the log shows") ||
		!strings.Contains(f.Summary, "exports no rate-limiter metric") {
		t.Errorf("CD205 is not the log's: %+v", *f)
	}
}

// A kubebuilder-scaffolded operator (zap's console encoder, its default) whose settings
// controller fails every reconcile of two ConfigMaps, then blocks for good on a third: the
// failures stop when its only worker blocks, yet the log read still holds them, and the
// stuck worker's finding names both objects with their errors, in json and in the text.
func TestReportNamesFailuresBeforeTheWorkerBlocked(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	p := operatorBehindPod(t, ns, "operator", "failing-then-stuck", "--log-format", "zap-console")
	time.Sleep(35 * time.Second) // 20s of failures, then blocked
	args := []string{"-n", ns, "--include-apiserver=false", "--threshold", "stuckAfter=5s"}
	d, r := reportJSON(t, args...)
	if r.Code != 0 {
		t.Fatalf("report:\n%s", r)
	}
	want := []string{
		ns + `/settings-001 x`, `"sync to backend: dial tcp 10.96.0.9:443: connect: connection refused"`,
		ns + `/settings-004 x`, `"validate settings-004: replicas must be a number, got three"`,
	}
	found := false
	for _, f := range d.Findings {
		if f.Check != "stuck-worker" || f.Queue != "settings" {
			continue
		}
		found = true
		var cited []string
		for _, e := range f.Evidence {
			if e.Name == "log: Reconciler error" {
				cited = append(cited, e.Value)
			}
		}
		all := strings.Join(cited, "\n")
		for _, w := range want {
			if !strings.Contains(all, w) {
				t.Errorf("the stuck worker's finding does not cite %s from the log:\n%s", w, all)
			}
		}
	}
	if !found {
		t.Fatalf("no stuck-worker on the settings queue: %s\n%s", d.checks(), r.Stderr)
	}
	l := logsOf(t, r).logOfPod(t, ns+"/"+p.Name)
	if len(l.Failures) != 2 {
		t.Errorf("the log section: %+v", l.Failures)
	}
	txt := ctrldiag(t, append([]string{"report"}, args...)...)
	flat := strings.Join(strings.Fields(txt.Stdout), " ")
	if txt.Code != 0 || !strings.Contains(flat, ns+"/settings-001") || !strings.Contains(flat, ns+"/settings-004") {
		t.Errorf("the text report does not name the failing objects:\n%s", txt)
	}
}
