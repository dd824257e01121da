package discover

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// monitorScan is what the scope's ServiceMonitors and PodMonitors are, and why some could not
// be read.
type monitorScan struct {
	svc, pod []monitor
	warnings []string
}

// scanMonitors asks the discovery API once whether monitoring.coreos.com/v1 is served and, if
// so, lists its ServiceMonitors and PodMonitors in the scope, in pages. Monitors that cannot be
// listed (e.g. forbidden) are a warning, not a failure: the other heuristics still apply.
func scanMonitors(ctx context.Context, client kubernetes.Interface, opts Options) monitorScan {
	var ms monitorScan
	if opts.Dynamic == nil {
		return ms
	}
	svcServed, podServed, err := monitorsServed(client.Discovery())
	if err != nil {
		ms.warnings = append(ms.warnings, err.Error()+": ServiceMonitors and PodMonitors are not looked at")
		return ms
	}
	if svcServed {
		if ms.svc, err = scopeMonitors(ctx, serviceMonitors, "ServiceMonitor", opts); err != nil {
			ms.warnings = append(ms.warnings, err.Error()+": ServiceMonitors are not looked at")
		}
	}
	if podServed {
		if ms.pod, err = scopeMonitors(ctx, podMonitors, "PodMonitor", opts); err != nil {
			ms.warnings = append(ms.warnings, err.Error()+": PodMonitors are not looked at")
		}
	}
	return ms
}

// scopeMonitors lists the monitors of one kind that may select targets in the scope. With one
// namespace it lists them in all namespaces when the user may, so that monitors kept elsewhere
// whose namespaceSelector names it count (kube-prometheus keeps them in "monitoring"; the
// target rules check every monitor's namespaceSelector); if that is forbidden, the namespace's
// own.
func scopeMonitors(ctx context.Context, gvr schema.GroupVersionResource, kind string, opts Options) ([]monitor, error) {
	if opts.Namespace != "" {
		all, err := listMonitors(ctx, opts.Dynamic, gvr, kind, "", opts.PageSize)
		if !apierrors.IsForbidden(err) {
			return all, err
		}
	}
	return listMonitors(ctx, opts.Dynamic, gvr, kind, opts.Namespace, opts.PageSize)
}

// serviceMonitorTargets selects the Services of each endpoint of m, then their pods.
func serviceMonitorTargets(m *monitor, services []corev1.Service, pods []corev1.Pod, opts Options) ([]target.Target, []Skipped) {
	sel := monitorSelector(m)
	var ts []target.Target
	var skipped []Skipped
	for i := range services {
		svc := &services[i]
		if !m.selects(svc.Namespace) || !sel.Matches(labels.Set(svc.Labels)) || len(svc.Spec.Selector) == 0 {
			continue
		}
		for _, e := range m.Spec.Endpoints {
			sp, what, ok := endpointServicePort(svc, e)
			if !ok {
				continue
			}
			reason := fmt.Sprintf("%s, endpoint %s of Service %s", m.name(), what, svc.Name)
			t, s := podsBehindService(svc, sp, pods, reason, endpoint{scheme: endpointScheme(e), path: endpointPath(e)}, opts)
			ts, skipped = append(ts, t...), append(skipped, s...)
		}
	}
	return ts, skipped
}

// endpointServicePort is the service port an endpoint names (port: a service port name), or
// a port that sends to its targetPort on the pods.
func endpointServicePort(svc *corev1.Service, e monitorEndpoint) (corev1.ServicePort, string, bool) {
	switch {
	case e.Port != "":
		for _, p := range svc.Spec.Ports {
			if p.Name == e.Port {
				return p, "port " + e.Port, true
			}
		}
	case e.TargetPort != nil:
		return corev1.ServicePort{TargetPort: *e.TargetPort}, "targetPort " + e.TargetPort.String(), true
	}
	return corev1.ServicePort{}, "", false
}

// podMonitorTargets selects the pods of m and reads each endpoint's port on them.
func podMonitorTargets(m *monitor, pods []corev1.Pod, opts Options) ([]target.Target, []Skipped) {
	sel := monitorSelector(m)
	var ts []target.Target
	var skipped []Skipped
	for i := range pods {
		pod := &pods[i]
		if !m.selects(pod.Namespace) || !sel.Matches(labels.Set(pod.Labels)) {
			continue
		}
		for _, e := range m.Spec.PodMetricsEndpoints {
			port, what := endpointPodPort(pod, e)
			if port == 0 {
				skipped = append(skipped, Skipped{Namespace: pod.Namespace, Pod: pod.Name,
					Reason: fmt.Sprintf("%s: the pod has no container port %s", m.name(), what)})
				continue
			}
			t, skip := portTarget(pod, port, endpointScheme(e), endpointPath(e), fmt.Sprintf("%s, endpoint %s", m.name(), what), opts)
			ts, skipped = append(ts, t...), append(skipped, skip...)
		}
	}
	return ts, skipped
}

// endpointPodPort resolves a podMetricsEndpoint's port (a container port name), portNumber,
// or deprecated targetPort on pod; 0 when the pod has no such port.
func endpointPodPort(pod *corev1.Pod, e monitorEndpoint) (int32, string) {
	switch {
	case e.Port != "":
		return containerPortByName(pod, e.Port), fmt.Sprintf("named %q", e.Port)
	case e.PortNumber != 0:
		return e.PortNumber, fmt.Sprint(e.PortNumber)
	case e.TargetPort != nil && e.TargetPort.Type == intstr.String:
		return containerPortByName(pod, e.TargetPort.StrVal), fmt.Sprintf("named %q", e.TargetPort.StrVal)
	case e.TargetPort != nil:
		return e.TargetPort.IntVal, fmt.Sprint(e.TargetPort.IntVal)
	}
	return 0, "(the endpoint names none)"
}
