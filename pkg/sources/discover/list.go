package discover

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// listPods lists pods in pages of pageSize with the label selector applied by the server.
func listPods(ctx context.Context, client kubernetes.Interface, ns, selector string, pageSize int64) ([]corev1.Pod, error) {
	var all []corev1.Pod
	opts := metav1.ListOptions{LabelSelector: selector, Limit: pageSize}
	for {
		list, err := client.CoreV1().Pods(ns).List(ctx, opts)
		if err != nil {
			return nil, fmt.Errorf("list pods%s: %w", inNamespace(ns), err)
		}
		all = append(all, list.Items...)
		if list.Continue == "" {
			return all, nil
		}
		opts.Continue = list.Continue
	}
}

// listMetricsServices lists the Services kubebuilder scaffolds for metrics (label
// control-plane=controller-manager), in pages.
func listMetricsServices(ctx context.Context, client kubernetes.Interface, ns string, pageSize int64) ([]corev1.Service, error) {
	return listServices(ctx, client, ns, kubebuilderLabel, pageSize)
}

// listServices lists the services that match selector ("" for all), in pages.
func listServices(ctx context.Context, client kubernetes.Interface, ns, selector string, pageSize int64) ([]corev1.Service, error) {
	var all []corev1.Service
	opts := metav1.ListOptions{LabelSelector: selector, Limit: pageSize}
	for {
		list, err := client.CoreV1().Services(ns).List(ctx, opts)
		if err != nil {
			return nil, fmt.Errorf("list services%s: %w", inNamespace(ns), err)
		}
		all = append(all, list.Items...)
		if list.Continue == "" {
			return all, nil
		}
		opts.Continue = list.Continue
	}
}

func inNamespace(ns string) string {
	if ns == "" {
		return " in all namespaces"
	}
	return fmt.Sprintf(" in namespace %q", ns)
}
