package discover

import (
	"context"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
)

// The Prometheus Operator's monitoring.coreos.com/v1 resources.
var (
	monitoringGroupVersion = "monitoring.coreos.com/v1"
	serviceMonitors        = schema.GroupVersionResource{Group: "monitoring.coreos.com", Version: "v1", Resource: "servicemonitors"}
	podMonitors            = schema.GroupVersionResource{Group: "monitoring.coreos.com", Version: "v1", Resource: "podmonitors"}
)

// monitor is the part of a ServiceMonitor or PodMonitor that says what to scrape. Only the
// fields read here are declared; the Prometheus Operator's API is not a dependency.
type monitor struct {
	Kind     string            `json:"kind"`
	Metadata metav1.ObjectMeta `json:"metadata"`
	Spec     struct {
		Selector          metav1.LabelSelector `json:"selector"`
		NamespaceSelector struct {
			Any        bool     `json:"any"`
			MatchNames []string `json:"matchNames"`
		} `json:"namespaceSelector"`
		Endpoints           []monitorEndpoint `json:"endpoints"`           // ServiceMonitor
		PodMetricsEndpoints []monitorEndpoint `json:"podMetricsEndpoints"` // PodMonitor
	} `json:"spec"`
}

type monitorEndpoint struct {
	Port       string              `json:"port"`
	PortNumber int32               `json:"portNumber"`
	TargetPort *intstr.IntOrString `json:"targetPort"`
	Path       string              `json:"path"`
	Scheme     string              `json:"scheme"`
}

// selects reports whether the monitor looks at namespace ns (default: its own).
func (m *monitor) selects(ns string) bool {
	switch {
	case m.Spec.NamespaceSelector.Any:
		return true
	case len(m.Spec.NamespaceSelector.MatchNames) > 0:
		for _, n := range m.Spec.NamespaceSelector.MatchNames {
			if n == ns {
				return true
			}
		}
		return false
	}
	return ns == m.Metadata.Namespace
}

func (m *monitor) name() string { return m.Kind + " " + m.Metadata.Namespace + "/" + m.Metadata.Name }

// monitorsServed asks the discovery API, once, which of ServiceMonitor and PodMonitor exist.
func monitorsServed(dc discovery.DiscoveryInterface) (svc, pod bool, err error) {
	list, err := dc.ServerResourcesForGroupVersion(monitoringGroupVersion)
	if apierrors.IsNotFound(err) {
		return false, false, nil
	}
	if err != nil {
		return false, false, fmt.Errorf("discover %s: %w", monitoringGroupVersion, err)
	}
	for _, r := range list.APIResources {
		switch r.Name {
		case serviceMonitors.Resource:
			svc = true
		case podMonitors.Resource:
			pod = true
		}
	}
	return svc, pod, nil
}

// listMonitors lists one kind of monitor in ns ("" for all), in pages.
func listMonitors(ctx context.Context, dyn dynamic.Interface, gvr schema.GroupVersionResource, kind, ns string, pageSize int64) ([]monitor, error) {
	var out []monitor
	opts := metav1.ListOptions{Limit: pageSize}
	for {
		list, err := dyn.Resource(gvr).Namespace(ns).List(ctx, opts)
		if err != nil {
			return nil, fmt.Errorf("list %s%s: %w", gvr.Resource, inNamespace(ns), err)
		}
		for _, u := range list.Items {
			var m monitor
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &m); err != nil {
				return nil, fmt.Errorf("%s %s/%s: %w", kind, u.GetNamespace(), u.GetName(), err)
			}
			m.Kind = kind
			out = append(out, m)
		}
		if list.GetContinue() == "" {
			return out, nil
		}
		opts.Continue = list.GetContinue()
	}
}

// monitorSelector is the monitor's label selector; an invalid one selects nothing.
func monitorSelector(m *monitor) labels.Selector {
	sel, err := metav1.LabelSelectorAsSelector(&m.Spec.Selector)
	if err != nil {
		return labels.Nothing()
	}
	return sel
}

func endpointScheme(e monitorEndpoint) string {
	if strings.EqualFold(e.Scheme, "https") {
		return "https"
	}
	return "http"
}

func endpointPath(e monitorEndpoint) string {
	if e.Path != "" {
		return e.Path
	}
	return "/metrics"
}

// containerPortByName returns the number of the pod's container port called name, or 0.
func containerPortByName(pod *corev1.Pod, name string) int32 {
	for _, c := range pod.Spec.Containers {
		for _, p := range c.Ports {
			if p.Name == name {
				return p.ContainerPort
			}
		}
	}
	return 0
}
