package discover

import (
	"context"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// ParseExplicit splits a TARGET argument into its kind (pod, service, deployment) and name.
func ParseExplicit(arg string) (kind, name string, err error) {
	k, n, found := strings.Cut(arg, "/")
	if !found {
		k, n = "pod", arg
	}
	switch strings.ToLower(k) {
	case "pod", "pods", "po":
		kind = "pod"
	case "svc", "service", "services":
		kind = "service"
	case "deploy", "deployment", "deployments":
		kind = "deployment"
	default:
		return "", "", fmt.Errorf("target %q: use pod/NAME, svc/NAME, deploy/NAME or a pod name", arg)
	}
	if n == "" || strings.Contains(n, "/") {
		return "", "", fmt.Errorf("target %q: use pod/NAME, svc/NAME, deploy/NAME or a pod name", arg)
	}
	return kind, n, nil
}

// explicitTargets resolves the TARGET arguments in opts.Namespace.
func explicitTargets(ctx context.Context, client kubernetes.Interface, opts Options) (Result, error) {
	if opts.Namespace == "" {
		return Result{}, fmt.Errorf("targets given by name need one namespace: use -n NAMESPACE instead of -A")
	}
	var res Result
	for _, arg := range opts.Explicit {
		kind, name, err := ParseExplicit(arg)
		if err != nil {
			return Result{}, err
		}
		var pods []corev1.Pod
		switch kind {
		case "pod":
			pods, err = explicitPod(ctx, client, opts, name)
		case "service":
			pods, err = explicitService(ctx, client, opts, name, &res)
		case "deployment":
			pods, err = explicitDeployment(ctx, client, opts, name)
		}
		if err == nil && kind != "service" {
			var ts []target.Target
			var skipped []Skipped
			ts, skipped, err = podsAsTargets(pods, opts, arg)
			res.Targets = append(res.Targets, ts...)
			res.Skipped = append(res.Skipped, skipped...)
		}
		if err != nil {
			return Result{}, err
		}
		res.keepPods(pods)
	}
	return res, nil
}

func explicitPod(ctx context.Context, client kubernetes.Interface, opts Options, name string) ([]corev1.Pod, error) {
	pod, err := client.CoreV1().Pods(opts.Namespace).Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, errNotFound("pod", opts.Namespace, name)
	}
	if err != nil {
		return nil, fmt.Errorf("get pod %s/%s: %w", opts.Namespace, name, err)
	}
	return []corev1.Pod{*pod}, nil
}

func explicitDeployment(ctx context.Context, client kubernetes.Interface, opts Options, name string) ([]corev1.Pod, error) {
	d, err := client.AppsV1().Deployments(opts.Namespace).Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, errNotFound("deployment", opts.Namespace, name)
	}
	if err != nil {
		return nil, fmt.Errorf("get deployment %s/%s: %w", opts.Namespace, name, err)
	}
	sel, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil {
		return nil, fmt.Errorf("deployment %s/%s: %w", opts.Namespace, name, err)
	}
	pods, err := listPods(ctx, client, opts.Namespace, sel.String(), opts.PageSize)
	if err != nil {
		return nil, err
	}
	if len(pods) == 0 {
		return nil, fmt.Errorf("deployment %s/%s has no pods", opts.Namespace, name)
	}
	return pods, nil
}

// explicitService adds the targets behind the service to res and returns its pods.
func explicitService(ctx context.Context, client kubernetes.Interface, opts Options, name string, res *Result) ([]corev1.Pod, error) {
	svc, err := client.CoreV1().Services(opts.Namespace).Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, errNotFound("service", opts.Namespace, name)
	}
	if err != nil {
		return nil, fmt.Errorf("get service %s/%s: %w", opts.Namespace, name, err)
	}
	if len(svc.Spec.Selector) == 0 {
		return nil, fmt.Errorf("service %s/%s has no selector: name its pods instead (pod/NAME)", opts.Namespace, name)
	}
	sp, ok := metricsServicePort(svc)
	if !ok && opts.Port == 0 {
		return nil, fmt.Errorf("service %s/%s has several ports and none is named for metrics: give --port", opts.Namespace, name)
	}
	sel := metav1.FormatLabelSelector(&metav1.LabelSelector{MatchLabels: svc.Spec.Selector})
	pods, err := listPods(ctx, client, opts.Namespace, sel, opts.PageSize)
	if err != nil {
		return nil, err
	}
	if len(pods) == 0 {
		return nil, fmt.Errorf("service %s/%s selects no pods", opts.Namespace, name)
	}
	if !ok {
		sp = corev1.ServicePort{Port: opts.Port}
	}
	ts, skipped := podsBehindService(svc, sp, pods, "svc/"+name, endpoint{}, opts)
	if len(ts) == 0 {
		return nil, fmt.Errorf("service %s/%s: none of its %d pods can be scraped (%s)", opts.Namespace, name, len(pods), skippedSummary(skipped))
	}
	res.Targets = append(res.Targets, ts...)
	res.Skipped = append(res.Skipped, skipped...)
	return pods, nil
}

// podsAsTargets applies the heuristics to pods named explicitly; a pod without a metrics port
// needs --port.
func podsAsTargets(pods []corev1.Pod, opts Options, arg string) ([]target.Target, []Skipped, error) {
	var ts []target.Target
	var skipped []Skipped
	for i := range pods {
		pod := &pods[i]
		found, why := podTargets(pod, opts)
		if len(found) == 0 {
			if opts.Port == 0 {
				return nil, nil, fmt.Errorf("%s: pod %s/%s declares no metrics port (no port named metrics/http-metrics/https, no prometheus.io/port annotation): give --port",
					arg, pod.Namespace, pod.Name)
			}
			t := target.Target{Kind: target.KindPod, Namespace: pod.Namespace, Name: pod.Name, PodIP: pod.Status.PodIP,
				Workload: workloadOf(pod), Ready: podReady(pod), Path: "/metrics", Scheme: "http"}
			t.Container, t.PortName = containerOfPort(pod, opts.Port)
			found = applyOverrides([]target.Target{t}, opts)
		}
		if why != "" {
			skipped = append(skipped, Skipped{Namespace: pod.Namespace, Pod: pod.Name, Reason: why})
			continue
		}
		for j := range found {
			found[j].Reason = "named on the command line (" + arg + ")"
		}
		ts = append(ts, found...)
	}
	if len(ts) == 0 {
		return nil, skipped, fmt.Errorf("%s: no pod can be scraped (%s)", arg, skippedSummary(skipped))
	}
	return ts, skipped, nil
}

func skippedSummary(s []Skipped) string {
	parts := make([]string, 0, len(s))
	for _, x := range s {
		parts = append(parts, x.Pod+": "+x.Reason)
	}
	return strings.Join(parts, "; ")
}
