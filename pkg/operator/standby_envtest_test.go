//go:build envtest

package operator_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// Two replicas of the warm-standby scenario share one Lease. The leader runs in this process;
// the standby is the operator binary in a process of its own, since the metrics registry is
// one per process. The standby's informers fill its workqueue while no worker runs: its page
// has workqueue_depth = the objects and no controller_runtime_* series of its controller, and
// the rules say warm-standby (info) about it and nothing else; the leader raises nothing.
func TestWarmStandby(t *testing.T) {
	leader := start(t, "warm", "warm-standby", nil)
	leader.waitForController(t, "")
	metrics := freeAddr(t)
	exited := startProcess(t, operatorBinary(t), "run", "--kubeconfig", writeKubeconfig(t), "-n", leader.ns,
		"--scenario", "warm-standby", "--leader-election-id", leader.leaseID,
		"--metrics-bind-address", metrics, "--health-probe-bind-address", "0")
	url := "http://" + metrics + "/metrics"
	const ctrl, objects = "workload", 8
	q := map[string]string{"name": ctrl}
	deadline := time.Now().Add(60 * time.Second)
	for {
		_, f, err := scrape(url, "")
		if err == nil && f.sum("workqueue_depth", q) == objects {
			break
		}
		select {
		case <-exited:
			t.Fatalf("the standby exited")
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the standby's queue did not fill with %d items within 60s (last error: %v)", objects, err)
		}
		time.Sleep(500 * time.Millisecond)
	}
	time.Sleep(2 * time.Second) // past the initial fill, as report reads a running standby
	_, a, err := scrape(url, "")
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * time.Second)
	_, b, err := scrape(url, "")
	if err != nil {
		t.Fatal(err)
	}
	if d := b.sum("workqueue_depth", q); d != objects {
		t.Errorf("standby: depth %v, want %d (one item per object, none worked on)", d, objects)
	}
	if n := b.histogram("workqueue_work_duration_seconds", q).count; n != 0 {
		t.Errorf("standby: %v items worked on, want 0", n)
	}
	for name, fam := range b {
		if !strings.HasPrefix(name, "controller_runtime_") {
			continue
		}
		for _, m := range fam.GetMetric() {
			if matches(m, map[string]string{"controller": ctrl}) {
				t.Errorf("standby: %s{controller=%q} is exported, but a controller that never started has none", name, ctrl)
			}
		}
	}
	if v := b.sum("leader_election_master_status", map[string]string{"name": leader.leaseID}); v == 1 {
		t.Errorf("standby: leader_election_master_status 1, want the in-process replica leading")
	}
	fs := diagnose(a, b, 5, ctrl, leader.leaseID)
	if got := checks(fs); got != "info:warm-standby" {
		t.Errorf("standby: findings %q, want info:warm-standby only; %+v", got, fs)
	}
	t.Logf("standby: depth %v, adds %v; findings %q", b.sum("workqueue_depth", q), b.sum("workqueue_adds_total", q), checks(fs))

	la := leader.sample(t)
	time.Sleep(5 * time.Second)
	lb := leader.sample(t)
	if s := serious(diagnose(la, lb, 5, leader.controller, leader.leaseID)); s != "" {
		t.Errorf("leader: raised %s", s)
	}
	if v := lb.sum("leader_election_master_status", map[string]string{"name": leader.leaseID}); v != 1 {
		t.Errorf("leader: leader_election_master_status %v, want 1", v)
	}
}

// operatorBinary builds cmd/kubectl-ctrldiag-operator into a temporary folder.
func operatorBinary(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "kubectl-ctrldiag-operator")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/kubectl-ctrldiag-operator")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build the operator: %v\n%s", err, out)
	}
	return bin
}

// writeKubeconfig writes the envtest API server's address and credentials for a process.
func writeKubeconfig(t *testing.T) string {
	t.Helper()
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["envtest"] = &clientcmdapi.Cluster{Server: restCfg.Host, CertificateAuthorityData: restCfg.CAData}
	cfg.AuthInfos["envtest"] = &clientcmdapi.AuthInfo{ClientCertificateData: restCfg.CertData,
		ClientKeyData: restCfg.KeyData, Token: restCfg.BearerToken}
	cfg.Contexts["envtest"] = &clientcmdapi.Context{Cluster: "envtest", AuthInfo: "envtest"}
	cfg.CurrentContext = "envtest"
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// startProcess runs argv with its output in a log shown when the test fails; it is stopped
// with SIGTERM (then SIGKILL after 20s) when the test ends. The channel closes when it exits.
func startProcess(t *testing.T, argv ...string) <-chan struct{} {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), "process.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			<-done
			t.Errorf("%s did not stop within 20s of SIGTERM", argv[0])
		}
		logFile.Close()
		if t.Failed() {
			b, _ := os.ReadFile(logPath)
			lines := strings.Split(string(b), "\n")
			if len(lines) > 40 {
				lines = lines[len(lines)-40:]
			}
			t.Logf("--- log of %s:\n%s", filepath.Base(argv[0]), strings.Join(lines, "\n"))
		}
	})
	return done
}
