package discover

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// groupLabels are the labels that group pods without an owner into one workload, in order of
// preference: the recommended app.kubernetes.io/name, then app, then kubebuilder's
// control-plane.
var groupLabels = []string{"app.kubernetes.io/name", "app", "control-plane"}

// workloadOf names the workload the pod is a replica of; replicas of one workload (in one
// namespace) are compared to find the leader. The rule, in order:
//   - the controlling owner: deployment/NAME (through its ReplicaSet), statefulset/NAME,
//     daemonset/NAME, job/NAME, replicaset/NAME...;
//   - static/COMPONENT for mirror pods (kubeadm's control plane, label component), or "static";
//   - for a pod with no owner, its first label of app.kubernetes.io/name, app, control-plane,
//     as KEY=VALUE (e.g. "app=my-operator");
//   - "" otherwise: the pod is a workload of its own.
func workloadOf(pod *corev1.Pod) string {
	for _, o := range pod.OwnerReferences {
		if o.Controller == nil || !*o.Controller {
			continue
		}
		switch o.Kind {
		case "ReplicaSet":
			if h := pod.Labels["pod-template-hash"]; h != "" && strings.HasSuffix(o.Name, "-"+h) {
				return "deployment/" + strings.TrimSuffix(o.Name, "-"+h)
			}
			return "replicaset/" + o.Name
		case "Node":
			return staticWorkload(pod)
		default:
			return strings.ToLower(o.Kind) + "/" + o.Name
		}
	}
	if pod.Annotations["kubernetes.io/config.source"] == "file" || pod.Annotations["kubernetes.io/config.mirror"] != "" {
		return staticWorkload(pod)
	}
	for _, k := range groupLabels {
		if v := pod.Labels[k]; v != "" {
			return k + "=" + v
		}
	}
	return ""
}

// staticWorkload groups the mirror pods of one control-plane component (one per control-plane
// node) and keeps different components apart.
func staticWorkload(pod *corev1.Pod) string {
	if c := pod.Labels["component"]; c != "" {
		return "static/" + c
	}
	return "static"
}
