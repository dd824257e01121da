package report

import (
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// The findings learn the image, command and arguments of the container that serves the
// metrics, not of a sidecar beside it: they tell a well-known controller and its flags.
func TestFindingsTargetCarriesTheMetricsContainersImageAndArgs(t *testing.T) {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "flux-system", Name: "source-controller-0"},
		Spec: corev1.PodSpec{Containers: []corev1.Container{
			{Name: "proxy", Image: "quay.io/brancz/kube-rbac-proxy:v0.18.0", Args: []string{"--upstream=http://127.0.0.1:8080/"}},
			{Name: "manager", Image: "ghcr.io/fluxcd/source-controller:v1.4.1", Command: []string{"source-controller"},
				Args: []string{"--concurrent=4"}},
		}}}
	rd := read{in: model.Target{Facts: model.Facts{Target: target.Target{Kind: target.KindPod, Namespace: pod.Namespace, Name: pod.Name,
		Container: "manager"}, Pod: pod}}}
	ft := findingsTarget(rd, Input{})
	if ft.Pod == nil || ft.Pod.Image != "ghcr.io/fluxcd/source-controller:v1.4.1" ||
		!slices.Equal(ft.Pod.Args, []string{"source-controller", "--concurrent=4"}) {
		t.Errorf("pod: %+v", ft.Pod)
	}
	// The container's own slices are not shared with the findings' input.
	ft.Pod.Args[0] = "changed"
	if pod.Spec.Containers[1].Command[0] != "source-controller" {
		t.Error("findings' Args alias the pod's command")
	}
}
