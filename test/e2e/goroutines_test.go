//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// goroutineDoc is what report -o json says of the dumps and the stuck-worker finding.
type goroutineDoc struct {
	Findings []struct {
		Check, Summary, Recommendation string
		Evidence                       []struct{ Name, Value string }
	}
	Goroutines []struct {
		Target, Endpoint, Reason, Note string
		Workers                        int
		Groups                         []struct {
			Count int
			State string
			Wait  struct{ Func string }
			Own   *struct {
				Func, File string
				Line       int
			}
		}
	}
}

func (d goroutineDoc) stuck(t *testing.T) (summary, recommendation string, evidence map[string]string) {
	t.Helper()
	for _, f := range d.Findings {
		if f.Check == "stuck-worker" {
			ev := map[string]string{}
			for _, e := range f.Evidence {
				ev[e.Name] = e.Value
			}
			return f.Summary, f.Recommendation, ev
		}
	}
	t.Fatalf("no stuck-worker finding: %+v", d.Findings)
	return "", "", nil
}

func goroutineReport(t *testing.T, args ...string) (goroutineDoc, Result) {
	t.Helper()
	r := ctrldiag(t, append([]string{"report", "-o", "json", "--include-apiserver=false", "--threshold", "stuckAfter=5s", "--fail-on", "critical"}, args...)...)
	var d goroutineDoc
	if r.Code != 3 {
		t.Fatalf("report --fail-on critical of a stuck worker must exit 3, dump or not:\n%s", r)
	}
	if err := json.Unmarshal([]byte(r.Stdout), &d); err != nil {
		t.Fatalf("report -o json is not JSON: %v\n%s", err, r)
	}
	return d, r
}

// The reference operator's stuck scenario with pprof on: report reads the goroutine dump once
// and names where the worker blocks, in the operator's own code; --no-profile reads none; a
// snapshot keeps the dump and --from-snapshot shows it again.
func TestReportGoroutinesOfAStuckWorker(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	startBehindPod(t, podSpec{Namespace: ns, Name: "stuck", Labels: map[string]string{"app": "stuck"},
		Ports: []podPort{{Name: "http-metrics", Port: 8080}, {Name: "pprof", Port: 8082}},
		Command: func(listen map[int32]string) []string {
			return []string{filepath.Join(env.binDir, "kubectl-ctrldiag"), "operator", "run", "-n", ns, "--scenario", "stuck",
				"--metrics-bind-address", listen[8080], "--pprof-bind-address", listen[8082], "--health-probe-bind-address", "0"}
		}})
	time.Sleep(12 * time.Second)

	// The stuck reconcile calls a backend that never answers, with no deadline.
	const own = "github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/controller.(*backend).call"
	d, _ := goroutineReport(t, "-n", ns)
	summary, rec, _ := d.stuck(t)
	if !strings.Contains(summary, ": 1 worker blocked ") || !strings.HasSuffix(summary, " in net/http.(*Client).Do, called from "+own+" [select]") {
		t.Errorf("the stuck-worker finding does not name where the worker waits: %s", summary)
	}
	if !strings.HasPrefix(rec, "The workers wait in an HTTP call that has no deadline: give the client a Timeout") {
		t.Errorf("the advice does not follow from the frame: %s", rec)
	}
	if len(d.Goroutines) != 1 || len(d.Goroutines[0].Groups) == 0 {
		t.Fatalf("report -o json has no goroutine dump: %+v", d.Goroutines)
	}
	g := d.Goroutines[0]
	top := g.Groups[0]
	if g.Target != ns+"/stuck:8080" || g.Endpoint != ns+"/stuck:8082/debug/pprof/goroutine" || g.Reason != "container port named pprof" ||
		g.Workers != 1 || top.Count != 1 || top.State != "select" || top.Wait.Func != "net/http.(*Client).Do" || top.Own == nil || top.Own.Func != own ||
		!strings.HasSuffix(top.Own.File, "pkg/operator/controller/backend.go") || top.Own.Line == 0 {
		t.Errorf("the dump's groups: %+v %+v", g, top)
	}

	text := ctrldiag(t, "report", "-n", ns, "--include-apiserver=false", "--threshold", "stuckAfter=5s", "-o", "wide")
	if !strings.Contains(text.Stdout, "GOROUTINES: WHERE THE WORKERS WAIT") || !strings.Contains(text.Stdout, "controller.(*backend).call (backend.go:") {
		t.Errorf("the text report shows no goroutine section:\n%s", text.Stdout)
	}
	t.Logf("report of the stuck scenario:\n%s", text.Stdout)

	d, _ = goroutineReport(t, "-n", ns, "--no-profile")
	if summary, _, _ := d.stuck(t); strings.Contains(summary, "called from") || len(d.Goroutines) != 0 {
		t.Errorf("--no-profile read a dump: %s %+v", summary, d.Goroutines)
	}

	file := filepath.Join(t.TempDir(), "stuck.tar.gz")
	snap := ctrldiag(t, "snapshot", "-n", ns, "--include-apiserver=false", "--threshold", "stuckAfter=5s", "-f", file)
	if snap.Code != 0 && snap.Code != 3 {
		t.Fatalf("snapshot:\n%s", snap)
	}
	nowhere := filepath.Join(t.TempDir(), "nowhere.kubeconfig")
	if err := os.WriteFile(nowhere, []byte("apiVersion: v1\nkind: Config\nclusters: [{name: x, cluster: {server: 'https://127.0.0.1:1'}}]\ncontexts: [{name: x, context: {cluster: x, user: x}}]\ncurrent-context: x\nusers: [{name: x, user: {}}]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	replay := runAs(t, nowhere, "kubectl", "ctrldiag", "report", "--from-snapshot", file, "-o", "json", "--threshold", "stuckAfter=5s")
	var back goroutineDoc
	if err := json.Unmarshal([]byte(replay.Stdout), &back); err != nil || len(back.Goroutines) != 1 || len(back.Goroutines[0].Groups) == 0 ||
		back.Goroutines[0].Groups[0].Own == nil || back.Goroutines[0].Groups[0].Own.Func != own {
		t.Errorf("report --from-snapshot does not show the dump: %v\n%s", err, replay)
	}
}

// A stuck worker whose process serves no pprof: the report says why there is no dump, and
// is the same report otherwise (no failure, no other exit code).
func TestReportGoroutinesWithoutAnEndpoint(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	startBehindPod(t, podSpec{Namespace: ns, Name: "stuck", Labels: map[string]string{"app": "stuck"},
		Ports: []podPort{{Name: "http-metrics", Port: 8080}},
		Command: func(listen map[int32]string) []string {
			return []string{filepath.Join(env.binDir, "kubectl-ctrldiag"), "operator", "run", "-n", ns, "--scenario", "stuck",
				"--metrics-bind-address", listen[8080], "--health-probe-bind-address", "0"}
		}})
	time.Sleep(12 * time.Second)
	d, r := goroutineReport(t, "-n", ns)
	summary, _, ev := d.stuck(t)
	if strings.Contains(summary, "called from") || !strings.HasPrefix(ev["goroutine dump"], "no pprof endpoint") {
		t.Errorf("without pprof the finding must say why there is no dump: %s %v", summary, ev)
	}
	if len(d.Goroutines) != 1 || !strings.HasPrefix(d.Goroutines[0].Note, "no pprof endpoint") || len(d.Goroutines[0].Groups) != 0 {
		t.Errorf("the report's dumps: %+v", d.Goroutines)
	}
	// A port that does not serve pprof (the metrics port): a 404, a note, no failure.
	d, r = goroutineReport(t, "-n", ns, "--pprof-port", "8080")
	if len(d.Goroutines) != 1 || !strings.Contains(d.Goroutines[0].Note, "404") {
		t.Errorf("--pprof-port at the metrics port: %+v\n%s", d.Goroutines, r.Stderr)
	}
	bad := ctrldiag(t, "report", "-n", ns, "--pprof-port", "70000")
	if bad.Code != 2 || !strings.Contains(bad.Stderr, "--pprof-port") || !strings.Contains(bad.Stderr, "70000") {
		t.Errorf("a bad --pprof-port is a usage error:\n%s", bad)
	}
}
