//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/tmuxterm"
)

// TestTopFollowsARolloutInTmux is the live view's use in a real cluster: one watches the
// saturated reference operator with `kubectl ctrldiag top -n NS` in a terminal (tmux) and
// raises its workers, which is a rollout: a new pod (sat-new, --workers 200) is created and
// Ready, then the old one (sat-old) is deleted and its process ends. In the same session, with
// the default --rediscover, the new pod's row appears and drains (depth below 10, no backlog)
// and the old pod's row leaves the table rather than staying an ERROR row.
func TestTopFollowsARolloutInTmux(t *testing.T) {
	crowd(t)
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("this test drives kubectl ctrldiag top in tmux: install Debian's tmux package (hack/test-deps.sh does, as root)")
	}
	ns := newNamespace(t)
	operator := func(name string, extra ...string) *behindPod {
		return startBehindPod(t, podSpec{Namespace: ns, Name: name,
			Labels: map[string]string{"control-plane": "controller-manager", "app": "sat"},
			Ports:  []podPort{{Name: "http-metrics", Port: 8080}},
			Command: func(listen map[int32]string) []string {
				return append([]string{filepath.Join(env.binDir, "kubectl-ctrldiag"), "operator", "run", "-n", ns,
					"--scenario", "saturated", "--metrics-bind-address", listen[8080], "--health-probe-bind-address", "0"}, extra...)
			}})
	}
	old := operator("sat-old")

	x := tmuxterm.New(t, fmt.Sprintf("env PATH=%q KUBECONFIG=%q HOME=%q kubectl ctrldiag top -n %s --refresh 1s; echo \"exit status $?\"; sleep 600",
		env.path, env.kubeconfig, os.Getenv("HOME"), ns))
	depth := func(f []string) float64 {
		if f == nil {
			return -1
		}
		v, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			return -1
		}
		return v
	}
	x.WaitFor(90*time.Second, "sat-old's depth above 20, SATURATED or BACKLOG", func(s string) bool {
		l := " " + strings.Join(topRow(s, "sat-old"), " ") + " "
		return depth(topRow(s, "sat-old")) > 20 && (strings.Contains(l, " SATURATED ") || strings.Contains(l, " BACKLOG "))
	})

	// The rollout: the new pod with more workers first, then the old one deleted and ended.
	operator("sat-new", "--workers", "200")
	mustKubectl(t, "-n", ns, "delete", "pod,portforward", "sat-old", "--wait=false", "--grace-period=0", "--force")
	if err := old.Stop(t); err != nil {
		t.Logf("stopping the old operator: %v", err)
	}

	// Within a period of --rediscover (30s) and some refreshes: sat-new has a row, sat-old none.
	s := x.WaitFor(90*time.Second, "sat-new's row without sat-old's", func(s string) bool {
		return topRow(s, "sat-new") != nil && topRow(s, "sat-old") == nil && strings.Contains(s, "TOP FINDING")
	})
	// The view goes on: sat-new stays, sat-old does not come back, and the depth drains.
	s = x.WaitFor(90*time.Second, "sat-new's depth below 10", func(s string) bool {
		if topRow(s, "sat-old") != nil {
			t.Fatalf("the deleted pod's row came back:\n%s", s)
		}
		d := depth(topRow(s, "sat-new"))
		return d >= 0 && d < 10
	})
	if l := " " + strings.Join(topRow(s, "sat-new"), " ") + " "; strings.Contains(l, " BACKLOG ") || strings.Contains(l, " ERROR ") {
		t.Errorf("drained with 200 workers, sat-new's row is %q", l)
	}

	x.Keys("q")
	s = x.WaitFor(15*time.Second, "the exit", func(s string) bool { return strings.Contains(s, "exit status ") })
	if !strings.Contains(s, "exit status 0") {
		t.Errorf("after q:\n%s", s)
	}
}
