//go:build envtest

// These tests run the reference operator in-process against a real kube-apiserver and etcd
// started by controller-runtime's envtest, and check each scenario's signature on /metrics.
// Run: KUBEBUILDER_ASSETS=/path/to/dir/with/kube-apiserver+etcd go test -tags envtest ./pkg/operator/
package operator_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"testing"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator"
)

var (
	restCfg *rest.Config
	kube    *kubernetes.Clientset
)

func TestMain(m *testing.M) {
	if os.Getenv("KUBEBUILDER_ASSETS") == "" {
		fmt.Fprintln(os.Stderr, "skipping envtest tests: set KUBEBUILDER_ASSETS to a folder holding kube-apiserver and etcd")
		os.Exit(0)
	}
	ctrl.SetLogger(logr.Discard())
	env := &envtest.Environment{}
	cfg, err := env.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "start envtest:", err)
		os.Exit(1)
	}
	restCfg = cfg
	kube = kubernetes.NewForConfigOrDie(cfg)
	code := m.Run()
	_ = env.Stop()
	os.Exit(code)
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// instance is one operator run in this process.
type instance struct {
	ns, controller, leaseID string
	metrics, health         string
	scheme                  string
	cancel                  context.CancelFunc
	done                    chan error
}

// start runs the operator with scenario sc in a fresh namespace named after name; names must
// differ between the runs of one test process.
func start(t *testing.T, name, sc string, mutate func(*operator.Config)) *instance {
	t.Helper()
	return startAs(t, name, sc, restCfg, mutate)
}

// startAs is start with the operator's own client configuration (another identity).
func startAs(t *testing.T, name, sc string, as *rest.Config, mutate func(*operator.Config)) *instance {
	t.Helper()
	in := &instance{ns: "sc-" + name, controller: "ctrldiag-demo-" + name, leaseID: "lease-" + name,
		metrics: freeAddr(t), health: freeAddr(t), scheme: "http"}
	_, err := kube.CoreV1().Namespaces().Create(context.Background(),
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: in.ns}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create namespace: %v", err)
	}
	cfg := operator.DefaultConfig()
	cfg.Namespace, cfg.Scenario = in.ns, sc
	cfg.MetricsBindAddress, cfg.HealthProbeAddress = in.metrics, in.health
	cfg.LeaderElectionID, cfg.ControllerName = in.leaseID, in.controller
	cfg.SkipNameValidation = true
	cfg.GracefulShutdown = 10 * time.Second
	if mutate != nil {
		mutate(&cfg)
	}
	if cfg.MetricsSecure {
		in.scheme = "https"
	}
	ctx, cancel := context.WithCancel(context.Background())
	in.cancel, in.done = cancel, make(chan error, 1)
	go func() { in.done <- operator.Run(ctx, as, cfg) }()
	t.Cleanup(func() { in.stop(t) })
	return in
}

func (in *instance) url() string { return in.scheme + "://" + in.metrics + "/metrics" }

// waitForController scrapes until the controller's workqueue series appear.
func (in *instance) waitForController(t *testing.T, token string) families {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		select {
		case err := <-in.done:
			t.Fatalf("operator stopped early: %v", err)
		default:
		}
		_, f, err := scrape(in.url(), token)
		if err == nil && f.hasLabels("workqueue_adds_total", "name", "controller") &&
			f.sum("workqueue_adds_total", map[string]string{"name": in.controller}) > 0 {
			return f
		}
		if time.Now().After(deadline) {
			t.Fatalf("controller %s did not show up on %s within 60s (last error: %v)", in.controller, in.url(), err)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// stop cancels the operator and checks that it shuts down cleanly and in time.
func (in *instance) stop(t *testing.T) {
	if in.cancel == nil {
		return
	}
	in.cancel()
	in.cancel = nil
	select {
	case err := <-in.done:
		if err != nil {
			t.Errorf("operator returned an error on shutdown: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Errorf("operator did not stop within 20s of cancellation")
	}
}

func (in *instance) sample(t *testing.T) families {
	t.Helper()
	_, f, err := scrape(in.url(), "")
	if err != nil {
		t.Fatalf("scrape: %v", err)
	}
	return f
}
