//go:build e2e

package e2e

import (
	"bufio"
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

// topRow is the screen's line of the row of a target whose name holds pod, and its fields.
func topRow(screen, pod string) []string {
	for _, l := range strings.Split(screen, "\n") {
		if f := strings.Fields(l); len(f) > 2 && strings.Contains(f[0], "/"+pod+":") {
			return f
		}
	}
	return nil
}

// TestTopSaturatedOperatorInTmux watches the saturated reference operator, and a healthy one
// beside it, with `kubectl ctrldiag top` in a real terminal (tmux): their rows appear and
// update, the saturated queue's depth climbs with a SATURATED or BACKLOG status, s sorts by depth,
// / filters, Enter shows the queue's findings, the healthy operator stopped becomes an ERROR
// row while the view goes on, and q exits 0 leaving the terminal as it was (alternate screen
// left, cursor shown, no escape sequence on the screen).
func TestTopSaturatedOperatorInTmux(t *testing.T) {
	crowd(t)
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("this test drives kubectl ctrldiag top in tmux: install Debian's tmux package (hack/test-deps.sh does, as root)")
	}
	// Each operator in a namespace of its own: a scenario's driver deletes the Workloads of
	// other scenarios in its namespace, and both controllers would reconcile them all. Both
	// pods also carry a label of this run, which top's selector requires, so that top -A does
	// not see the pods of other tests running at the same time (app=sat is common).
	run := fmt.Sprintf("top-tmux-%d", time.Now().UnixNano())
	operator := func(name, scenario string) *behindPod {
		ns := newNamespace(t)
		return startBehindPod(t, podSpec{Namespace: ns, Name: name,
			Labels: map[string]string{"control-plane": "controller-manager", "app": name, "e2e.ctrldiag.dev/run": run},
			Ports:  []podPort{{Name: "http-metrics", Port: 8080}},
			Command: func(listen map[int32]string) []string {
				return []string{filepath.Join(env.binDir, "kubectl-ctrldiag"), "operator", "run", "-n", ns,
					"--scenario", scenario, "--metrics-bind-address", listen[8080], "--health-probe-bind-address", "0"}
			}})
	}
	operator("sat", "saturated")
	calm := operator("calm", "healthy")

	x := tmuxterm.New(t, fmt.Sprintf("env PATH=%q KUBECONFIG=%q HOME=%q kubectl ctrldiag top -A -l 'app in (sat,calm),e2e.ctrldiag.dev/run=%s' --refresh 1s; echo \"exit status $?\"; sleep 600",
		env.path, env.kubeconfig, os.Getenv("HOME"), run))

	// Rows appear; the saturated queue climbs and is judged.
	s := x.WaitFor(60*time.Second, "both operators' rows", func(s string) bool { return topRow(s, "sat") != nil && topRow(s, "calm") != nil })
	depth := func(f []string) float64 {
		if f == nil {
			return -1
		}
		v, _ := strconv.ParseFloat(f[2], 64)
		return v
	}
	first := depth(topRow(s, "sat"))
	// The scenario has 150 objects: touched 10/s with 1s reconciles, its queue fills within about
	// 20s and then holds every object not in a worker. A busy machine can show the first row only
	// once the queue is full; then a depth of 100 or more is the climb already made.
	s = x.WaitFor(60*time.Second, "the saturated depth to climb, SATURATED or BACKLOG", func(s string) bool {
		l := strings.Join(topRow(s, "sat"), " ")
		d := depth(topRow(s, "sat"))
		return (d > first || d >= 100) && (strings.Contains(l, " SATURATED ") || strings.Contains(l, " BACKLOG "))
	})

	// s sorts by depth: the saturated operator first.
	x.Keys("s")
	s = x.WaitFor(10*time.Second, "sort by depth", func(s string) bool { return strings.Contains(s, "sort: depth") })
	if i, j := strings.Index(s, "/sat:"), strings.Index(s, "/calm:"); i < 0 || j < 0 || i > j {
		t.Errorf("sorted by depth, sat above calm:\n%s", s)
	}
	// / filters to the healthy operator.
	x.Keys("/", "calm", "Enter")
	s = x.WaitFor(10*time.Second, "the filter", func(s string) bool {
		return strings.Contains(s, "filter: calm") && strings.Contains(s, "TOP FINDING")
	})
	if topRow(s, "sat") != nil || topRow(s, "calm") == nil {
		t.Errorf("filtered by calm:\n%s", s)
	}
	x.Keys("Escape")
	x.WaitFor(10*time.Second, "the filter cleared", func(s string) bool { return !strings.Contains(s, "filter:") && topRow(s, "sat") != nil })
	// Enter on the first row (sat, by depth) opens its details and findings.
	x.Keys("Down", "Enter")
	s = x.WaitFor(10*time.Second, "the details of sat", func(s string) bool { return strings.Contains(s, "Findings:") })
	if !strings.Contains(s, "/sat:") || !(strings.Contains(s, "workers") && strings.Contains(s, "CD")) {
		t.Errorf("details of the saturated queue:\n%s", s)
	}
	x.Keys("Escape")
	x.WaitFor(10*time.Second, "the table", func(s string) bool { return strings.Contains(s, "TOP FINDING") })

	// The healthy operator goes away: its row becomes ERROR, the saturated one goes on.
	if err := calm.Stop(t); err != nil {
		t.Logf("stopping calm: %v", err)
	}
	s = x.WaitFor(60*time.Second, "calm's ERROR row", func(s string) bool {
		f := topRow(s, "calm")
		return f != nil && strings.Contains(strings.Join(f, " "), "ERROR")
	})
	before := strings.Join(topRow(s, "sat"), " ")
	x.WaitFor(30*time.Second, "sat to go on updating", func(s string) bool {
		l := strings.Join(topRow(s, "sat"), " ")
		return l != "" && l != before
	})

	// q exits 0 and leaves the terminal as it was.
	x.Keys("q")
	s = x.WaitFor(15*time.Second, "the exit", func(s string) bool { return strings.Contains(s, "exit status ") })
	if !strings.Contains(s, "exit status 0") || strings.Contains(s, "TOP FINDING") || strings.Contains(s, "\x1b") || strings.Contains(s, "[?") {
		t.Errorf("after q:\n%q", s)
	}
	if got := strings.TrimSpace(x.Run("display-message", "-p", "-t", "top", "#{alternate_on} #{cursor_flag}")); got != "0 1" {
		t.Errorf("after q: alternate screen and cursor flags %q, want \"0 1\"", got)
	}
}

// TestTopKeepsPortForwards proves from the API server's audit log that top opens a pod's
// port-forward once and reads it at every refresh, where queues opens one per page: six
// refreshes over --via port-forward make at most two port-forward requests (websockets, then
// SPDY should websockets be refused), and six refreshes over the proxy make six proxy GETs.
func TestTopKeepsPortForwards(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	user := fmt.Sprintf("ctrldiag-top-%d", time.Now().UnixNano()%1e6)
	mustKubectl(t, "create", "clusterrolebinding", user, "--clusterrole=cluster-admin", "--user="+user)
	t.Cleanup(func() { kubectl(t, "delete", "clusterrolebinding", user) })
	kubeconfig := certKubeconfig(t, user)
	page := filepath.Join(env.root, "test/e2e/testdata/kube-controller-manager.prom")
	startBehindPod(t, podSpec{Namespace: ns, Name: "plain", Ports: []podPort{{Name: "metrics", Port: 8080}},
		Command: func(l map[int32]string) []string { return []string{env.servepage, "--listen", l[8080], "--file", page} }})
	audit := filepath.Join(env.run, "logs/audit.log")

	// requests runs six refreshes and counts the user's distinct pods/subresource requests,
	// once at least enough of them are in the log, and again a second later for stragglers.
	requests := func(via, subresource string, enough int) int {
		offset := fileSize(t, audit)
		r := runAs(t, kubeconfig, "kubectl", "ctrldiag", "top", "-n", ns, "--via", via, "--refresh", "500ms", "--count", "6")
		if r.Code != 0 || strings.Count(r.Stdout, "# ") != 6 || strings.Contains(r.Stdout, "ERROR") {
			t.Fatalf("top --via %s:\n%s", via, r)
		}
		ids := map[string]bool{}
		count := func() {
			for _, e := range auditSince(t, audit, offset) {
				if e.User.Username == user && e.ObjectRef != nil && e.ObjectRef.Subresource == subresource {
					ids[e.AuditID] = true
				}
			}
		}
		eventually(t, 10*time.Second, "top's requests in the audit log", func() error {
			if count(); len(ids) < enough {
				return fmt.Errorf("%d pods/%s requests of %s so far", len(ids), subresource, user)
			}
			return nil
		})
		time.Sleep(time.Second)
		count()
		return len(ids)
	}
	if n := requests("port-forward", "portforward", 1); n > 2 {
		t.Errorf("6 refreshes through port-forward opened %d forwards, want 1 (2 with the SPDY fallback)", n)
	}
	if n := requests("proxy", "proxy", 6); n != 6 {
		t.Errorf("6 refreshes through the proxy made %d proxy requests, want 6", n)
	}
}

// TestTopWatchesTheDepthDrainWhenWorkersAreRaised is the live view's use: top (a pipe: one
// table a refresh) watches the saturated reference operator's depth climb; the operator is
// restarted behind the same pod with --workers 200, as one raising its workers would; top,
// without being restarted, then shows the depth drained (below 10) and no backlog.
func TestTopWatchesTheDepthDrainWhenWorkersAreRaised(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	argv := func(listen string, extra ...string) []string {
		return append([]string{filepath.Join(env.binDir, "kubectl-ctrldiag"), "operator", "run", "-n", ns,
			"--scenario", "saturated", "--metrics-bind-address", listen, "--health-probe-bind-address", "0"}, extra...)
	}
	sat := startBehindPod(t, podSpec{Namespace: ns, Name: "sat", Labels: map[string]string{"control-plane": "controller-manager"},
		Ports:   []podPort{{Name: "http-metrics", Port: 8080}},
		Command: func(listen map[int32]string) []string { return argv(listen[8080]) }})

	// -o wide: every column in its place (in 80 columns, one target's name is left out).
	cmd := exec.Command("kubectl", "ctrldiag", "top", "-n", ns, "--refresh", "1s", "--count", "180", "-o", "wide")
	cmd.Env = commandEnv(env.kubeconfig)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("top's stderr:\n%s", tail(stderr.String(), 20))
		}
	})
	// rows yields the fields of sat's row of every table top prints.
	rows := make(chan []string, 256)
	go func() {
		defer close(rows)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if f := strings.Fields(sc.Text()); len(f) >= 10 && strings.Contains(f[0], "/sat:") {
				rows <- f
			}
		}
	}()
	next := func(timeout time.Duration, why string, ok func(f []string) bool) []string {
		t.Helper()
		deadline := time.After(timeout)
		for {
			select {
			case f, open := <-rows:
				if !open {
					t.Fatalf("top ended before %s", why)
				}
				if ok(f) {
					return f
				}
			case <-deadline:
				t.Fatalf("no table with %s within %s", why, timeout)
			}
		}
	}
	depth := func(f []string) float64 {
		v, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			return -1
		}
		return v
	}
	// The depth climbs past 20 with every worker busy (SATURATED or BACKLOG).
	next(90*time.Second, "sat's depth above 20, SATURATED or BACKLOG", func(f []string) bool {
		return depth(f) > 20 && (f[9] == "SATURATED" || f[9] == "BACKLOG")
	})

	// Raise the workers: the same pod, a new process with --workers 200.
	if err := sat.Stop(t); err != nil {
		t.Logf("stopping the saturated operator: %v", err)
	}
	p := startLocal(t, "sat-200-workers", sat.IP, argv(sat.Listen[8080], "--workers", "200"))
	p.waitListening(t, sat.Listen[8080])

	// The depth drains, in the same top. Each reconcile still takes 1s, so the queue may stay
	// SLOW (slow-reconcile, with workers free), but it is no longer a backlog.
	f := next(90*time.Second, "sat's depth below 10 after raising its workers", func(f []string) bool {
		return depth(f) >= 0 && depth(f) < 10
	})
	if f[9] != "OK" && f[9] != "SLOW" {
		t.Errorf("drained, the queue is %s, want OK or SLOW (slow-reconcile): %v", f[9], f)
	}
}

// TestTopHistory runs `top -n NS --prometheus URL` in tmux while a real
// Prometheus has been scraping the saturated reference operator (behind a pod, with its
// namespace and pod labels) for 45s: the pod read live is matched to its series by namespace
// and pod, so the first frame's sparklines already hold points from before the session. The
// first frame alone (no history) holds one point (its depth; it has no rate), the second three.
func TestTopHistory(t *testing.T) {
	crowd(t)
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("this test drives kubectl ctrldiag top in tmux: install Debian's tmux package (hack/test-deps.sh does, as root)")
	}
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		t.Fatal("this test runs a real Prometheus: install Debian's prometheus package (hack/test-deps.sh does, as root)")
	}
	ns := newNamespace(t)
	p := operatorBehindPod(t, ns, "op-history", "saturated")
	url := startPromBackend(t, "prometheus", bin, fmt.Sprintf(`
  - job_name: operator
    static_configs:
      - targets: [%q]
        labels: {namespace: %q, pod: %q}
`, p.Listen[8080], ns, p.Name))
	time.Sleep(45 * time.Second)

	x := tmuxterm.New(t, fmt.Sprintf("env PATH=%q KUBECONFIG=%q HOME=%q kubectl ctrldiag top -n %s --prometheus %s --refresh 15s; echo \"exit status $?\"; sleep 600",
		env.path, env.kubeconfig, os.Getenv("HOME"), ns, url))
	s := x.WaitFor(60*time.Second, "the operator's rows", func(s string) bool { return topRow(s, p.Name) != nil })
	if !strings.Contains(s, "window: lifetime") {
		t.Fatalf("not the first frame any more:\n%s", s)
	}
	if strings.Contains(s, "no history") {
		t.Errorf("the history failed:\n%s", s)
	}
	points := 0
	for _, r := range strings.Join(topRow(s, p.Name), " ") {
		if strings.ContainsRune("▁▂▃▄▅▆▇█", r) {
			points++
		}
	}
	if points < 4 {
		t.Errorf("the first frame's sparklines hold %d points, want those of the 45s before it too:\n%s", points, s)
	}
	x.Keys("q")
	x.WaitFor(15*time.Second, "the exit", func(s string) bool { return strings.Contains(s, "exit status 0") })
}
