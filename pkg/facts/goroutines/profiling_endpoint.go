package goroutines

import (
	"net"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// GoroutinePath is the path of the goroutine dump with the stacks in full.
const GoroutinePath = "/debug/pprof/goroutine?debug=2"

// portNames are the container port names that serve pprof.
var portNames = []string{"pprof", "profiler", "profiling", "debug"}

// addressFlags are the flags that set a pprof server's address, as controllers name them.
var addressFlags = []string{"--pprof-bind-address", "--profiler-address", "--pprof-addr", "--pprof-address",
	"--profiling-address", "--profiler-bind-address", "--pprof-port", "--profiler-port"}

// Want says how to find the endpoint besides the pod.
type Want struct {
	// Port, when positive, is the pod's port that serves pprof (--pprof-port).
	Port int32
	// BesideMetrics says that the process serves /debug/pprof on its metrics port
	// (kube-controller-manager, kube-scheduler, the API server).
	BesideMetrics bool
}

// Endpoint is the target that serves the goroutine dump of the process behind metrics, and
// why there; ok is false when none is known.
func Endpoint(metrics target.Target, pod *corev1.Pod, w Want) (t target.Target, reason string, ok bool) {
	t = metrics
	t.Path = GoroutinePath
	switch {
	case metrics.Kind == target.KindAPIServer:
		return t, "the API server's /debug/pprof", true
	case metrics.Kind != target.KindPod:
		return target.Target{}, "", false
	case w.Port > 0:
		if w.Port != metrics.Port {
			t.Port, t.PortName, t.Scheme = w.Port, "", "http"
		}
		return t, "--pprof-port", true
	}
	if pod != nil {
		for _, c := range containers(pod, metrics.Container) {
			for _, p := range c.Ports {
				for _, n := range portNames {
					if strings.EqualFold(p.Name, n) && p.ContainerPort > 0 {
						t.Port, t.PortName, t.Scheme, t.Container = p.ContainerPort, p.Name, "http", c.Name
						return t, "container port named " + p.Name, true
					}
				}
			}
			if port, flag, ok := argPort(append(append([]string(nil), c.Command...), c.Args...)); ok {
				t.Port, t.PortName, t.Scheme, t.Container = port, "", "http", c.Name
				if port == metrics.Port {
					t.Scheme = metrics.Scheme
				}
				return t, flag + " in the container's arguments", true
			}
		}
	}
	if w.BesideMetrics {
		return t, "/debug/pprof beside the metrics on the secure port", true
	}
	return target.Target{}, "", false
}

// MetricsEndpoint says whether ep is the metrics endpoint itself (its port and scheme), the
// one the user pointed the metrics credentials at. A pprof port found in the pod is another
// endpoint, often plain http: it is asked without them.
func MetricsEndpoint(metrics, ep target.Target) bool {
	return ep.Port == metrics.Port && ep.Scheme == metrics.Scheme
}

// containers are the containers whose ports and arguments may name the pprof endpoint: the
// metrics container alone when it is known (another container is another process), else all.
func containers(pod *corev1.Pod, metrics string) []corev1.Container {
	for _, c := range pod.Spec.Containers {
		if c.Name == metrics {
			return []corev1.Container{c}
		}
	}
	return pod.Spec.Containers
}

// argPort finds a pprof address flag ("--pprof-bind-address=:8082", "--pprof-addr 127.0.0.1:6060",
// "--pprof-port=6060") and its port; an address of "0" or without a port is off.
func argPort(args []string) (int32, string, bool) {
	for i, a := range args {
		for _, f := range addressFlags {
			var val string
			switch {
			case strings.HasPrefix(a, f+"="):
				val = strings.TrimPrefix(a, f+"=")
			case a == f && i+1 < len(args):
				val = args[i+1]
			default:
				continue
			}
			if port, ok := portOf(val); ok {
				return port, f, true
			}
			return 0, "", false
		}
	}
	return 0, "", false
}

// portOf reads the port of "HOST:PORT", ":PORT" or "PORT".
func portOf(addr string) (int32, bool) {
	addr = strings.Trim(strings.TrimSpace(addr), `"'`)
	if _, p, err := net.SplitHostPort(addr); err == nil {
		addr = p
	}
	n, err := strconv.ParseInt(addr, 10, 32)
	if err != nil || n <= 0 || n > 65535 {
		return 0, false
	}
	return int32(n), true
}
