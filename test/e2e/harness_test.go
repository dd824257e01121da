//go:build e2e

// Package e2e runs the built kubectl-ctrldiag exactly as a user does, `kubectl ctrldiag ...`,
// against the project's real local control plane (hack/cluster): etcd, kube-apiserver,
// kube-controller-manager, kube-scheduler and kwok. TestMain starts the cluster or reuses a
// running one, builds the plugin and the test helpers, and puts the plugin on PATH.
//
// Run with `make test-e2e` (or `go test -tags e2e ./test/e2e`).
package e2e

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// e2eVersion is stamped into the plugin built for the tests, so that tests can tell it apart.
const e2eVersion = "v0.0.0-e2e"

// env describes the running cluster and the binaries built for the tests.
var env struct {
	root        string // repository root
	clusterRoot string // checkout whose hack/cluster runs the cluster (normally root)
	run         string // .cache/cluster/run
	kubeconfig  string // admin
	restricted  string // restricted user's kubeconfig
	netMode     string // "netns" (pod IPs reachable by the API-server proxy) or "loopback"
	netns       string // the network namespace in netns mode
	binDir      string // holds kubectl-ctrldiag, its operator and their kubectl_complete-* hooks, as make build's bin/
	servepage   string // test/e2e/servepage binary
	hostile     string // test/e2e/hostile/server binary
	path        string // PATH for commands: binDir, kubectl's folder, then the original PATH
}

func TestMain(m *testing.M) {
	if err := setupGate(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(2)
	}
	if err := setup(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e setup:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(filepath.Dir(env.binDir))
	os.Exit(code)
}

func setup() error {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return fmt.Errorf("go env GOMOD: %w", err)
	}
	env.root = filepath.Dir(strings.TrimSpace(string(out)))
	// CTRLDIAG_E2E_CLUSTER_ROOT lets a second checkout (a git worktree) use the cluster of the
	// first instead of starting another on the same fixed ports.
	env.clusterRoot = env.root
	if r := os.Getenv("CTRLDIAG_E2E_CLUSTER_ROOT"); r != "" {
		env.clusterRoot = r
	}
	up := exec.Command(filepath.Join(env.clusterRoot, "hack/cluster/up.sh"))
	up.Stdout, up.Stderr = os.Stderr, os.Stderr
	if err := up.Run(); err != nil {
		return fmt.Errorf("hack/cluster/up.sh: %w", err)
	}
	env.run = filepath.Join(env.clusterRoot, ".cache/cluster/run")
	env.kubeconfig = filepath.Join(env.run, "admin.kubeconfig")
	env.restricted = filepath.Join(env.run, "restricted.kubeconfig")
	mode, err := os.ReadFile(filepath.Join(env.run, "net-mode"))
	if err != nil {
		return err
	}
	env.netMode = strings.TrimSpace(string(mode))
	if env.netMode != "netns" {
		// Without the namespace the API server cannot proxy to pods (it refuses loopback pod
		// IPs), and half of what the suite proves is the proxy path.
		return fmt.Errorf("the local cluster runs in %q network mode; the e2e suite needs the "+
			"\"netns\" mode, which needs root (run make cluster-down, then make test as root)", env.netMode)
	}
	env.netns = "ctrldiag"

	tmp, err := os.MkdirTemp("", "ctrldiag-e2e-")
	if err != nil {
		return err
	}
	env.binDir = filepath.Join(tmp, "plugin")
	ldflags := "-X github.com/ctrldiag/kubectl-ctrldiag/pkg/version.version=" + e2eVersion +
		" -X github.com/ctrldiag/kubectl-ctrldiag/pkg/version.commit=e2e" +
		" -X github.com/ctrldiag/kubectl-ctrldiag/pkg/version.buildDate=1970-01-01T00:00:00Z"
	env.servepage = filepath.Join(tmp, "servepage")
	env.hostile = filepath.Join(tmp, "hostile")
	for _, b := range []struct{ out, pkg, ldflags string }{
		{filepath.Join(env.binDir, "kubectl-ctrldiag"), "./cmd/kubectl-ctrldiag", ldflags},
		{filepath.Join(env.binDir, "kubectl-ctrldiag-operator"), "./cmd/kubectl-ctrldiag-operator", ldflags},
		{env.servepage, "./test/e2e/servepage", ""},
		{env.hostile, "./test/e2e/hostile/server", ""},
	} {
		build := exec.Command("go", "build", "-ldflags", b.ldflags, "-o", b.out, b.pkg)
		build.Dir = env.root
		if out, err := build.CombinedOutput(); err != nil {
			return fmt.Errorf("go build %s: %v\n%s", b.pkg, err, out)
		}
	}
	// kubectl runs these for `kubectl ctrldiag [operator] <TAB>`; make build copies them the same way.
	for _, name := range []string{"kubectl_complete-ctrldiag", "kubectl_complete-ctrldiag-operator"} {
		hook, err := os.ReadFile(filepath.Join(env.root, "hack/completion", name))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(env.binDir, name), hook, 0o755); err != nil {
			return err
		}
	}
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		return fmt.Errorf("kubectl is not on PATH: %w", err)
	}
	env.path = env.binDir + string(os.PathListSeparator) + filepath.Dir(kubectl) +
		string(os.PathListSeparator) + os.Getenv("PATH")
	return nil
}

// Result is what a command printed and how it ended.
type Result struct {
	Stdout, Stderr string
	Code           int
}

func (r Result) String() string {
	return fmt.Sprintf("exit %d\n--- stdout\n%s--- stderr\n%s", r.Code, r.Stdout, r.Stderr)
}

// commandEnv is the environment of every command the tests run: the test PATH, the admin
// kubeconfig unless kubeconfig says otherwise, and no colour.
func commandEnv(kubeconfig string, extra ...string) []string {
	e := []string{"PATH=" + env.path, "KUBECONFIG=" + kubeconfig, "HOME=" + os.Getenv("HOME"), "NO_COLOR=1"}
	return append(e, extra...)
}

// runAs runs name with args under kubeconfig and a two-minute limit.
func runAs(t *testing.T, kubeconfig string, name string, args ...string) Result {
	t.Helper()
	r, _ := runMeasured(t, kubeconfig, name, args...)
	return r
}

// Usage is what a finished command used: its wall time, its CPU time (user and system) and its
// peak resident set size.
type Usage struct {
	Wall, CPU time.Duration
	MaxRSS    int64 // bytes
}

// runMeasured is runAs that also returns the command's wall time and peak RSS.
func runMeasured(t *testing.T, kubeconfig string, name string, args ...string) (Result, Usage) {
	t.Helper()
	return runWithin(t, 2*time.Minute, kubeconfig, name, args...)
}

// runWithin is runMeasured under a limit of its own, for the few commands that read a long
// window.
func runWithin(t *testing.T, limit time.Duration, kubeconfig string, name string, args ...string) (Result, Usage) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = commandEnv(kubeconfig)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	u := Usage{Wall: time.Since(start)}
	r := Result{Stdout: stdout.String(), Stderr: stderr.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.Code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	if ctx.Err() != nil {
		t.Fatalf("%s %s did not finish within %s\n%s", name, strings.Join(args, " "), limit, r)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		u.MaxRSS = ru.Maxrss * 1024 // kilobytes on Linux
		u.CPU = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return r, u
}

// kubectl runs kubectl as the cluster admin.
func kubectl(t *testing.T, args ...string) Result {
	t.Helper()
	return runAs(t, env.kubeconfig, "kubectl", args...)
}

// ctrldiag runs `kubectl ctrldiag args...` as the cluster admin.
func ctrldiag(t *testing.T, args ...string) Result {
	t.Helper()
	return runAs(t, env.kubeconfig, "kubectl", append([]string{"ctrldiag"}, args...)...)
}

// mustKubectl runs kubectl as admin and fails the test unless it succeeds.
func mustKubectl(t *testing.T, args ...string) string {
	t.Helper()
	r := kubectl(t, args...)
	if r.Code != 0 {
		t.Fatalf("kubectl %s:\n%s", strings.Join(args, " "), r)
	}
	return r.Stdout
}

// apply applies a manifest as admin.
func apply(t *testing.T, manifest string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "kubectl", "apply", "-f", "-")
	cmd.Env = commandEnv(env.kubeconfig)
	cmd.Stdin = strings.NewReader(manifest)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("kubectl apply: %v\n%s\n--- manifest\n%s", err, out, manifest)
	}
}

// namespaces counts the namespaces made, so that two made by one test have different names.
var namespaces atomic.Int64

// newNamespace creates a namespace for one test, deleted when the test ends.
func newNamespace(t *testing.T) string {
	t.Helper()
	name := "e2e-" + strings.ToLower(strings.NewReplacer("/", "-", "_", "-").Replace(t.Name()))
	if len(name) > 50 {
		name = name[:50]
	}
	name = strings.TrimRight(name, "-") + fmt.Sprintf("-%d%d", namespaces.Add(1), time.Now().UnixNano()%100000)
	mustKubectl(t, "create", "namespace", name)
	t.Cleanup(func() {
		cmd := exec.Command("kubectl", "delete", "namespace", name, "--wait=false")
		cmd.Env = commandEnv(env.kubeconfig)
		_ = cmd.Run()
	})
	return name
}

// eventually retries check every 250 ms until it returns nil or timeout passes.
func eventually(t *testing.T, timeout time.Duration, what string, check func() error) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s: %v", timeout, what, err)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// portForward runs `kubectl port-forward` to target (e.g. pod/NAME) and port in namespace ns on
// an ephemeral local port, and returns that local port; the forward stops when the test ends.
// websockets=false selects the SPDY fallback.
func portForward(t *testing.T, ns, target string, port int32, websockets bool) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, "kubectl", "-n", ns, "port-forward", target, fmt.Sprintf(":%d", port))
	cmd.Env = commandEnv(env.kubeconfig, fmt.Sprintf("KUBECTL_PORT_FORWARD_WEBSOCKETS=%t", websockets))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			// "Forwarding from 127.0.0.1:41234 -> 8080"
			if f := strings.Fields(sc.Text()); len(f) >= 3 && f[0] == "Forwarding" && strings.HasPrefix(f[2], "127.0.0.1:") {
				found <- strings.TrimPrefix(f[2], "127.0.0.1:")
				break
			}
		}
		for sc.Scan() {
		}
	}()
	select {
	case p := <-found:
		return p
	case <-time.After(30 * time.Second):
		t.Fatalf("kubectl port-forward %s did not start within 30s: %s", target, stderr.String())
	}
	return ""
}
