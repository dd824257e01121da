package goroutines

import (
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

func pod(ports []corev1.ContainerPort, args ...string) *corev1.Pod {
	return &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{
		{Name: "sidecar", Ports: []corev1.ContainerPort{{Name: "debug", ContainerPort: 9999}}},
		{Name: "manager", Ports: ports, Args: args},
	}}}
}

func TestEndpointIsFoundInThePodOrNamed(t *testing.T) {
	metrics := target.Target{Kind: target.KindPod, Namespace: "ns", Name: "p", Container: "manager", Port: 8443, Scheme: "https", Path: "/metrics", Via: target.ViaPortForward}
	cases := []struct {
		name   string
		pod    *corev1.Pod
		want   Want
		port   int32
		scheme string
		reason string
	}{
		{"port named pprof in the metrics container first", pod([]corev1.ContainerPort{{Name: "pprof", ContainerPort: 8082}}), Want{}, 8082, "http", "container port named pprof"},
		{"the flag's address", pod(nil, "--metrics-bind-address=:8443", "--pprof-bind-address=127.0.0.1:6060"), Want{}, 6060, "http", "--pprof-bind-address in the container's arguments"},
		{"the flag and its value apart", pod(nil, "--profiler-address", ":6061"), Want{}, 6061, "http", "--profiler-address in the container's arguments"},
		{"--pprof-port wins", pod([]corev1.ContainerPort{{Name: "pprof", ContainerPort: 8082}}), Want{Port: 6000}, 6000, "http", "--pprof-port"},
		{"--pprof-port on the metrics port keeps its scheme", pod(nil), Want{Port: 8443}, 8443, "https", "--pprof-port"},
		{"beside the metrics (kube-controller-manager)", &corev1.Pod{}, Want{BesideMetrics: true}, 8443, "https", "/debug/pprof beside the metrics on the secure port"},
	}
	for _, c := range cases {
		ep, reason, ok := Endpoint(metrics, c.pod, c.want)
		if !ok || ep.Port != c.port || ep.Scheme != c.scheme || reason != c.reason || ep.Path != GoroutinePath || ep.Via != metrics.Via {
			t.Errorf("%s: %v %q %+v", c.name, ok, reason, ep)
		}
	}
	for name, p := range map[string]*corev1.Pod{
		"nothing":          {Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "manager"}}}},
		"pprof turned off": pod(nil, "--pprof-bind-address=0"),
		"no pod":           nil,
	} {
		if ep, _, ok := Endpoint(metrics, p, Want{}); ok {
			t.Errorf("%s: found %+v", name, ep)
		}
	}
	if _, reason, ok := Endpoint(target.Target{Kind: target.KindAPIServer, Path: "/metrics"}, nil, Want{}); !ok || reason == "" {
		t.Error("the API server serves /debug/pprof")
	}
	if _, _, ok := Endpoint(target.Target{Kind: target.KindURL, Name: "http://x/metrics"}, nil, Want{Port: 1}); ok {
		t.Error("a URL target has no pprof endpoint")
	}
}

func TestOnlyTheMetricsEndpointIsTheMetricsEndpoint(t *testing.T) {
	metrics := target.Target{Kind: target.KindPod, Namespace: "ns", Name: "p", Container: "manager", Port: 8443, Scheme: "https", Path: "/metrics", Via: target.ViaPortForward}
	named, _, _ := Endpoint(metrics, pod([]corev1.ContainerPort{{Name: "pprof", ContainerPort: 8082}}), Want{})
	beside, _, _ := Endpoint(metrics, &corev1.Pod{}, Want{BesideMetrics: true})
	if MetricsEndpoint(metrics, named) || !MetricsEndpoint(metrics, beside) {
		t.Errorf("a port named pprof is the metrics endpoint: %v; /debug/pprof beside the metrics is not: %v",
			MetricsEndpoint(metrics, named), !MetricsEndpoint(metrics, beside))
	}
}
