package cmd

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/golden"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// firstScreen is how many lines of the text report must carry the answer.
const firstScreen = 10

// The snapshots hack/record-snapshots.sh took of the reference operator's scenarios, of Flux's
// source-controller in two faults, of cert-manager and external-dns in a fault each, and of
// kube-controller-manager with a quota-blocked ReplicaSet, and the check each must lead with
// ("" for none above info).
var snapshots = map[string]string{
	"healthy": "", "slow": "slow-reconcile", "saturated": "workers-saturated", "stuck": "stuck-worker",
	"errors": "retry-storm", "hotloop": "hot-loop", "throttled": "client-throttling", "stale": "cache-sync-lag",
	"memory": "memory-pressure", "failing": "persistent-failures", "polling": "", "starved": "priority-starvation",
	"past-incident": "", "long-reconcile": "", "kcm": "persistent-failures",
	"flux-refused": "persistent-failures", "flux-hang": "workers-saturated",
	"cert-manager-issuer": "persistent-failures", "external-dns-unsynced": "not-syncing",
}

// The first lines of the text report of each recorded run name the controller in trouble,
// what is wrong and the change to make, or say that all is well and what was read (goldens
// in testdata/firstscreen); every line keeps to 80 columns.
func TestFirstScreen(t *testing.T) {
	for name, want := range snapshots {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join("..", "..", "testdata", "snapshots", name+".tar.gz")
			text, errOut, code := runReportCmd(t, "--from-snapshot", file)
			if code != 0 {
				t.Fatalf("report --from-snapshot %s: exit %d\n%s", file, code, errOut)
			}
			lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
			for i, l := range lines {
				if utf8.RuneCountInString(l) > 80 && strings.Contains(strings.TrimSpace(l), " ") {
					t.Errorf("line %d is %d columns: %q", i+1, utf8.RuneCountInString(l), l)
				}
			}
			first := strings.Join(lines[:min(firstScreen, len(lines))], "\n") + "\n"
			out, errOut, _ := runReportCmd(t, "--from-snapshot", file, "-o", "json")
			var d view.Report
			if err := json.Unmarshal([]byte(out), &d); err != nil {
				t.Fatalf("-o json: %v\n%s", err, errOut)
			}
			checkAnswer(t, first, d, want)
			golden.Check(t, filepath.Join("testdata", "firstscreen", name+".txt"), []byte(first), *update,
				"go test ./pkg/cmd -run TestFirstScreen -update")
		})
	}
}

// checkAnswer holds the first screen to the report's own findings: the top one above info is
// want, its target and queue are named there with the change to make; a run without one
// says it is healthy.
func checkAnswer(t *testing.T, first string, d view.Report, want string) {
	t.Helper()
	var top *findings.Finding
	for i, f := range d.Findings {
		if f.Severity != findings.Info {
			top = &d.Findings[i]
			break
		}
	}
	switch {
	case want == "" && top != nil:
		t.Fatalf("%s %s on a healthy run", top.Code, top.Check)
	case want == "":
		if !strings.Contains(first, "Verdict: healthy") || !strings.Contains(first, "Healthy: ") {
			t.Errorf("the first screen of a healthy run does not say so:\n%s", first)
		}
		return
	case top == nil:
		t.Fatalf("no finding above info, want %s", want)
	case top.Check != want:
		t.Fatalf("the top finding is %s, want %s", top.Check, want)
	}
	// An informer named for its controller ("workload/workloads.example.com") is that
	// controller's: the summary names the controller.
	queue, _, _ := strings.Cut(top.Queue, "/")
	for _, s := range []string{top.Target, queue, "change: ", "(" + top.Code + ")"} {
		if !strings.Contains(strings.ReplaceAll(first, "\n", " "), s) {
			t.Errorf("the first screen does not name %q:\n%s", s, first)
		}
	}
}
