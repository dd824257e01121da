//go:build e2e

package e2e

import (
	"bufio"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRestartBetweenSamplesIsSaid restarts the reference operator behind its pod while
// `queues` waits for its second sample: the two pages are of two processes, so queues must say
// so on stderr and take its rates over the new process's life only, marked "since restart",
// never the counts of the first process against the second's over the whole window.
func TestRestartBetweenSamplesIsSaid(t *testing.T) {
	crowd(t)
	ns := newNamespace(t)
	argv := func(listen string) []string {
		return []string{filepath.Join(env.binDir, "kubectl-ctrldiag"), "operator", "run", "-n", ns,
			"--scenario", "healthy", "--metrics-bind-address", listen, "--health-probe-bind-address", "0"}
	}
	op := startBehindPod(t, podSpec{Namespace: ns, Name: "op", Labels: map[string]string{"control-plane": "controller-manager"},
		Ports:   []podPort{{Name: "http-metrics", Port: 8080}},
		Command: func(listen map[int32]string) []string { return argv(listen[8080]) }})

	// The first process lives a few seconds before the first sample and after it, so that
	// the two processes' start times (whole seconds of boot time plus clock ticks) differ.
	time.Sleep(3 * time.Second)

	// -v 6 logs every request client-go makes: the first GET of the metrics is the first sample.
	cmd := exec.Command("kubectl", "ctrldiag", "queues", "-n", ns, "--interval", "25s", "-o", "json", "-v", "6")
	cmd.Env = commandEnv(env.kubeconfig)
	var stdout strings.Builder
	cmd.Stdout = &stdout
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	var stderr strings.Builder
	firstSample := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(errPipe)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		seen := false
		for sc.Scan() {
			line := sc.Text()
			stderr.WriteString(line + "\n")
			if !seen && strings.Contains(line, "/metrics") && strings.Contains(line, "200 OK") {
				seen = true
				close(firstSample)
			}
		}
	}()
	select {
	case <-firstSample:
	case <-time.After(60 * time.Second):
		t.Fatalf("queues read no metrics page within 60s")
	}

	// The same pod, a new process: its counters start again from zero.
	time.Sleep(2 * time.Second)
	if err := op.Stop(t); err != nil {
		t.Logf("stopping the operator: %v", err)
	}
	p := startLocal(t, "op-again", op.IP, argv(op.Listen[8080]))
	p.waitListening(t, op.Listen[8080])

	<-done
	if err := cmd.Wait(); err != nil {
		t.Fatalf("queues: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), tail(stderr.String(), 30))
	}
	said := false
	for _, l := range strings.Split(stderr.String(), "\n") {
		said = said || strings.Contains(l, "restarted between its samples (process_start_time_seconds changed")
	}
	if !said {
		t.Errorf("stderr does not say that the target restarted between its samples:\n%s", tail(stderr.String(), 30))
	}
	var list struct {
		Window string
		Items  []struct {
			Queue         string
			Window        string
			AddsPerSecond *float64
		}
	}
	if err := json.Unmarshal([]byte(stdout.String()), &list); err != nil || len(list.Items) == 0 {
		t.Fatalf("queues -o json: %v\n%s", err, stdout.String())
	}
	if !strings.HasSuffix(list.Window, " since restart") {
		t.Errorf("window %q, want the time since the new process started, marked \"since restart\"", list.Window)
	}
	for _, it := range list.Items {
		w, err := time.ParseDuration(strings.TrimSuffix(it.Window, " since restart"))
		if !strings.HasSuffix(it.Window, " since restart") || err != nil || w <= 0 || w >= 25*time.Second {
			t.Errorf("queue %s: window %q, want under the 25s interval, since restart", it.Queue, it.Window)
		}
	}
}
