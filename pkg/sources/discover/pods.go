package discover

import (
	"fmt"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// Annotations Prometheus' kubernetes_sd examples made common.
const (
	annoScrape = "prometheus.io/scrape"
	annoPort   = "prometheus.io/port"
	annoPath   = "prometheus.io/path"
	annoScheme = "prometheus.io/scheme"
)

// metricsPortNames are container port names that announce a metrics endpoint ("http-prom" is
// Flux's controllers').
var metricsPortNames = map[string]string{
	"metrics":       "http",
	"http-metrics":  "http",
	"http-prom":     "http",
	"https-metrics": "https",
	"https":         "https",
}

// controlPlane are components known by their kubeadm labels, which declare no ports: the secure
// port of each, where /metrics is served over HTTPS.
var controlPlane = map[string]int32{
	"kube-controller-manager": 10257,
	"kube-scheduler":          10259,
}

// podTargets applies the heuristics to one pod. It returns the pod's targets and, when the pod
// cannot be scraped now (not running or not ready), why.
func podTargets(pod *corev1.Pod, opts Options) ([]target.Target, string) {
	base := target.Target{
		Kind: target.KindPod, Namespace: pod.Namespace, Name: pod.Name, PodIP: pod.Status.PodIP,
		Workload: workloadOf(pod), Ready: podReady(pod), Path: "/metrics", Scheme: "http",
	}
	var ts []target.Target
	switch {
	case strings.EqualFold(pod.Annotations[annoScrape], "true"):
		ts = annotatedTargets(pod, base)
	default:
		ts = namedPortTargets(pod, base)
		if len(ts) == 0 {
			ts = knownImageTargets(pod, base)
		}
		if len(ts) == 0 {
			if port, ok := controlPlane[pod.Labels["component"]]; ok {
				t := base
				t.Port, t.Scheme = port, "https"
				t.Container = firstContainer(pod)
				t.Reason = fmt.Sprintf("%s control-plane pod (label component=%s)", pod.Labels["component"], pod.Labels["component"])
				ts = append(ts, t)
			}
		}
	}
	ts = applyOverrides(ts, opts)
	return ts, notScrapeable(pod)
}

// annotatedTargets reads prometheus.io/port|path|scheme; without a port annotation it takes the
// pod's ports named for metrics, else its only declared port.
func annotatedTargets(pod *corev1.Pod, base target.Target) []target.Target {
	t := base
	t.Reason = "annotation prometheus.io/scrape=true"
	if p := pod.Annotations[annoPath]; p != "" {
		t.Path = p
	}
	if s := pod.Annotations[annoScheme]; s != "" {
		t.Scheme = strings.ToLower(s)
	}
	if p := pod.Annotations[annoPort]; p != "" {
		n, err := strconv.ParseInt(p, 10, 32)
		if err == nil && n > 0 && n < 65536 {
			t.Port = int32(n)
			t.Container, t.PortName = containerOfPort(pod, t.Port)
			return []target.Target{t}
		}
	}
	if named := namedPortTargets(pod, t); len(named) > 0 {
		for i := range named {
			named[i].Reason = t.Reason + ", " + named[i].Reason
			named[i].Path, named[i].Scheme = t.Path, t.Scheme
		}
		return named
	}
	var only []target.Target
	for _, c := range pod.Spec.Containers {
		for _, p := range c.Ports {
			if p.Protocol == "" || p.Protocol == corev1.ProtocolTCP {
				x := t
				x.Port, x.PortName, x.Container = p.ContainerPort, p.Name, c.Name
				only = append(only, x)
			}
		}
	}
	if len(only) == 1 {
		return only
	}
	return nil
}

// namedPortTargets returns one target per container port named like a metrics port.
func namedPortTargets(pod *corev1.Pod, base target.Target) []target.Target {
	var ts []target.Target
	for _, c := range pod.Spec.Containers {
		for _, p := range c.Ports {
			scheme, ok := metricsPortNames[p.Name]
			if !ok {
				continue
			}
			t := base
			t.Port, t.PortName, t.Container, t.Scheme = p.ContainerPort, p.Name, c.Name, scheme
			t.Reason = fmt.Sprintf("container port named %q", p.Name)
			ts = append(ts, t)
		}
	}
	return ts
}

// applyOverrides applies --port, --path and --scheme.
func applyOverrides(ts []target.Target, opts Options) []target.Target {
	if opts.Port == 0 && opts.Path == "" && opts.Scheme == "" {
		return ts
	}
	seen := map[int32]bool{}
	var out []target.Target
	for _, t := range ts {
		if opts.Port != 0 {
			t.Port, t.PortName = opts.Port, ""
		}
		if opts.Path != "" {
			t.Path = opts.Path
		}
		if opts.Scheme != "" {
			t.Scheme = opts.Scheme
		}
		if !seen[t.Port] {
			seen[t.Port] = true
			out = append(out, t)
		}
	}
	return out
}

// notScrapeable says why a pod cannot be scraped now, or "".
func notScrapeable(pod *corev1.Pod) string {
	switch {
	case pod.DeletionTimestamp != nil:
		return "terminating"
	case pod.Status.Phase != corev1.PodRunning:
		return fmt.Sprintf("phase %s", pod.Status.Phase)
	case !podReady(pod):
		return "not ready"
	}
	return ""
}

func podReady(pod *corev1.Pod) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

func containerOfPort(pod *corev1.Pod, port int32) (container, name string) {
	for _, c := range pod.Spec.Containers {
		for _, p := range c.Ports {
			if p.ContainerPort == port {
				return c.Name, p.Name
			}
		}
	}
	return firstContainer(pod), ""
}

func firstContainer(pod *corev1.Pod) string {
	if len(pod.Spec.Containers) > 0 {
		return pod.Spec.Containers[0].Name
	}
	return ""
}
