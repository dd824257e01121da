// Package discover finds the metrics endpoints of controllers in a cluster: explicit targets
// (pod/NAME, svc/NAME, deploy/NAME), pods that announce metrics (prometheus.io annotations,
// container ports named for metrics, known control-plane components), kubebuilder's metrics
// Services, ServiceMonitors and PodMonitors (monitoring.coreos.com/v1, when served), and the
// API server itself. It lists each resource kind once, in pages, and never issues a request
// per pod. It also names the workload each pod is a replica of.
package discover

import (
	"context"
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// Options say where to look and what to override.
type Options struct {
	// Namespace to look in; "" means all namespaces.
	Namespace string
	// Selector is a label selector applied (server-side) to the pods listed.
	Selector string
	// Explicit targets as given on the command line: pod/NAME, svc/NAME, deploy/NAME or NAME.
	// When set, only these are scraped (plus the API server when IncludeAPIServer).
	Explicit []string
	// IncludeAPIServer adds the API server's own /metrics.
	IncludeAPIServer bool
	// Port, Path and Scheme override what discovery would pick (0 / "" keep it).
	Port   int32
	Path   string
	Scheme string
	// PageSize is the limit of each list call (default 500).
	PageSize int64
	// SkipServices leaves out kubebuilder metrics Services and ServiceMonitors (e.g. when
	// services may not be listed).
	SkipServices bool
	// Dynamic lists ServiceMonitors and PodMonitors (monitoring.coreos.com/v1) when the API
	// serves them; nil leaves them out.
	Dynamic dynamic.Interface `json:"-"`
}

// Skipped is a pod that looked like a target but cannot be scraped now.
type Skipped struct {
	Namespace string `json:"namespace"`
	Pod       string `json:"pod"`
	Reason    string `json:"reason"`
}

// Result is what discovery found.
type Result struct {
	Targets []target.Target `json:"targets"`
	Skipped []Skipped       `json:"skipped,omitempty"`
	// Warnings say what could not be looked at (e.g. monitors that may not be listed).
	Warnings []string `json:"warnings,omitempty"`
	// Pods are the pods behind the targets and the skipped ones, by "namespace/name", as listed:
	// report shows their status and resources without asking again.
	Pods map[string]*corev1.Pod `json:"-"`
}

func (r *Result) addPod(p *corev1.Pod) {
	if r.Pods == nil {
		r.Pods = map[string]*corev1.Pod{}
	}
	r.Pods[p.Namespace+"/"+p.Name] = p
}

// keepPods records the pods of pods that appear among the targets or the skipped.
func (r *Result) keepPods(pods []corev1.Pod) {
	wanted := map[string]bool{}
	for _, t := range r.Targets {
		wanted[t.Namespace+"/"+t.Name] = true
	}
	for _, s := range r.Skipped {
		wanted[s.Namespace+"/"+s.Pod] = true
	}
	for i := range pods {
		if wanted[pods[i].Namespace+"/"+pods[i].Name] {
			r.addPod(&pods[i])
		}
	}
}

// Discover finds the targets opts describe.
func Discover(ctx context.Context, client kubernetes.Interface, opts Options) (Result, error) {
	if opts.PageSize == 0 {
		opts.PageSize = 500
	}
	var res Result
	var err error
	if len(opts.Explicit) > 0 {
		res, err = explicitTargets(ctx, client, opts)
	} else {
		res, err = scanNamespace(ctx, client, opts)
	}
	if err != nil {
		return Result{}, err
	}
	if opts.IncludeAPIServer {
		res.Targets = append(res.Targets, target.Target{
			Kind: target.KindAPIServer, Name: "kube-apiserver", Path: "/metrics", Scheme: "https",
			Ready: true, Reason: "the API server's own metrics", Via: target.ViaDirect,
			ViaReason: "the API server is reached with the kubeconfig's credentials",
		})
	}
	sortTargets(res.Targets)
	return res, nil
}

func sortTargets(ts []target.Target) {
	sort.SliceStable(ts, func(i, j int) bool {
		a, b := ts[i], ts[j]
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Port < b.Port
	})
}

// scanNamespace applies the heuristics to every pod (and kubebuilder metrics Service, and
// ServiceMonitor and PodMonitor) in the namespace or, with Namespace "", the whole cluster.
// What monitors configure comes first: its path and scheme win over the guesses.
func scanNamespace(ctx context.Context, client kubernetes.Interface, opts Options) (Result, error) {
	pods, err := listPods(ctx, client, opts.Namespace, opts.Selector, opts.PageSize)
	if err != nil {
		return Result{}, err
	}
	var res Result
	ms := scanMonitors(ctx, client, opts)
	if opts.SkipServices {
		ms.svc = nil // their Services cannot be listed
	}
	res.Warnings = ms.warnings
	var services []corev1.Service
	if !opts.SkipServices {
		if services, err = scopeServices(ctx, client, opts, len(ms.svc) > 0); err != nil {
			return Result{}, err
		}
	}
	seen := map[string]bool{}
	add := func(ts []target.Target, skipped []Skipped) {
		for _, t := range ts {
			if !seen[t.ID()] {
				seen[t.ID()] = true
				res.Targets = append(res.Targets, t)
			}
		}
		res.Skipped = append(res.Skipped, skipped...)
	}
	for i := range ms.svc {
		add(serviceMonitorTargets(&ms.svc[i], services, pods, opts))
	}
	for i := range ms.pod {
		add(podMonitorTargets(&ms.pod[i], pods, opts))
	}
	for i := range pods {
		ts, skip := podTargets(&pods[i], opts)
		if skip != "" && len(ts) > 0 {
			res.Skipped = append(res.Skipped, Skipped{Namespace: pods[i].Namespace, Pod: pods[i].Name, Reason: skip})
			continue
		}
		add(ts, nil)
	}
	kubebuilder := labels.SelectorFromSet(labels.Set{"control-plane": "controller-manager"})
	for i := range services {
		if kubebuilder.Matches(labels.Set(services[i].Labels)) {
			add(serviceTargets(&services[i], pods, opts))
		}
	}
	res.Skipped = dedupSkipped(res.Skipped)
	res.keepPods(pods)
	return res, nil
}

// scopeServices lists the kubebuilder metrics Services, or, when ServiceMonitors need them,
// every Service of the scope: one paged list either way.
func scopeServices(ctx context.Context, client kubernetes.Interface, opts Options, all bool) ([]corev1.Service, error) {
	if all {
		return listServices(ctx, client, opts.Namespace, "", opts.PageSize)
	}
	return listMetricsServices(ctx, client, opts.Namespace, opts.PageSize)
}

// dedupSkipped keeps the first reason given for each skipped pod.
func dedupSkipped(s []Skipped) []Skipped {
	seen := map[string]bool{}
	out := s[:0]
	for _, x := range s {
		if k := x.Namespace + "/" + x.Pod; !seen[k] {
			seen[k] = true
			out = append(out, x)
		}
	}
	return out
}

// errNotFound formats the error for a named object that does not exist.
func errNotFound(kind, ns, name string) error {
	return fmt.Errorf("%s %q not found in namespace %q", kind, name, ns)
}
