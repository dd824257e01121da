package discover

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// kubebuilderLabel marks the metrics Service kubebuilder scaffolds (<project>-controller-manager-
// metrics-service) next to the manager Deployment.
const kubebuilderLabel = "control-plane=controller-manager"

// serviceTargets turns a kubebuilder metrics Service into targets on the pods it selects (every
// ready replica is scraped, so that the leader can be told apart).
func serviceTargets(svc *corev1.Service, pods []corev1.Pod, opts Options) ([]target.Target, []Skipped) {
	if !strings.HasSuffix(svc.Name, "-metrics-service") || len(svc.Spec.Selector) == 0 {
		return nil, nil
	}
	sp, ok := metricsServicePort(svc)
	if !ok {
		return nil, nil
	}
	reason := fmt.Sprintf("kubebuilder metrics Service %s (port %s)", svc.Name, portLabel(sp))
	return podsBehindService(svc, sp, pods, reason, endpoint{}, opts)
}

// endpoint is the scheme and path a ServiceMonitor gives; empty means guess the scheme from
// the port and take /metrics.
type endpoint struct{ scheme, path string }

// podsBehindService resolves the service port on every pod the service selects.
func podsBehindService(svc *corev1.Service, sp corev1.ServicePort, pods []corev1.Pod, reason string, ep endpoint, opts Options) ([]target.Target, []Skipped) {
	sel := labels.SelectorFromSet(svc.Spec.Selector)
	scheme, path := ep.scheme, ep.path
	if scheme == "" {
		scheme = "http"
		if strings.Contains(sp.Name, "https") || sp.Port == 8443 || sp.Port == 443 {
			scheme = "https"
		}
	}
	if path == "" {
		path = "/metrics"
	}
	var ts []target.Target
	var skipped []Skipped
	for i := range pods {
		pod := &pods[i]
		if pod.Namespace != svc.Namespace || !sel.Matches(labels.Set(pod.Labels)) {
			continue
		}
		port, _ := resolveTargetPort(pod, sp)
		if port == 0 {
			skipped = append(skipped, Skipped{Namespace: pod.Namespace, Pod: pod.Name,
				Reason: fmt.Sprintf("%s: service %s port %s: the pod has no container port named %q", reason, svc.Name, portLabel(sp), sp.TargetPort.StrVal)})
			continue
		}
		t, skip := portTarget(pod, port, scheme, path, reason, opts)
		ts, skipped = append(ts, t...), append(skipped, skip...)
	}
	return ts, skipped
}

// portTarget is the target of one port of a pod found through a Service or a monitor, or the
// pod skipped when it cannot be scraped now.
func portTarget(pod *corev1.Pod, port int32, scheme, path, reason string, opts Options) ([]target.Target, []Skipped) {
	if why := notScrapeable(pod); why != "" {
		return nil, []Skipped{{Namespace: pod.Namespace, Pod: pod.Name, Reason: why}}
	}
	container, name := containerOfPort(pod, port)
	t := target.Target{Kind: target.KindPod, Namespace: pod.Namespace, Name: pod.Name, PodIP: pod.Status.PodIP,
		Workload: workloadOf(pod), Ready: true, Port: port, PortName: name, Container: container,
		Scheme: scheme, Path: path, Reason: reason}
	return applyOverrides([]target.Target{t}, opts), nil
}

// metricsServicePort picks the service's metrics port: one named https, metrics, http-metrics
// or https-metrics, else its only port.
func metricsServicePort(svc *corev1.Service) (corev1.ServicePort, bool) {
	for _, p := range svc.Spec.Ports {
		if _, ok := metricsPortNames[p.Name]; ok {
			return p, true
		}
	}
	if len(svc.Spec.Ports) == 1 {
		return svc.Spec.Ports[0], true
	}
	return corev1.ServicePort{}, false
}

// resolveTargetPort returns the container port number (and name) a service port sends to on
// pod; 0 when a named target port does not exist on the pod. Names are resolved here, on the
// client, because a named port in the API server's pod proxy path fails the request.
func resolveTargetPort(pod *corev1.Pod, sp corev1.ServicePort) (int32, string) {
	tp := sp.TargetPort
	switch {
	case tp.Type == intstr.String && tp.StrVal != "":
		for _, c := range pod.Spec.Containers {
			for _, p := range c.Ports {
				if p.Name == tp.StrVal {
					return p.ContainerPort, p.Name
				}
			}
		}
		return 0, ""
	case tp.Type == intstr.Int && tp.IntVal != 0:
		_, name := containerOfPort(pod, tp.IntVal)
		return tp.IntVal, name
	}
	_, name := containerOfPort(pod, sp.Port)
	return sp.Port, name
}

func portLabel(sp corev1.ServicePort) string {
	if sp.Name != "" {
		return fmt.Sprintf("%s/%d", sp.Name, sp.Port)
	}
	return fmt.Sprint(sp.Port)
}
