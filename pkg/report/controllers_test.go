package report

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// kube-controller-manager, and a controller knobs.yaml marks allNamespaces unless its flags
// restrict it, reconcile every namespace; an unknown operator is taken at its namespace.
func TestControllersClusterWide(t *testing.T) {
	at := func(labels map[string]string, image string, args []string, queues ...string) model.Target {
		s := &health.Snapshot{Queues: map[string]*health.Queue{}, Controllers: map[string]*health.Controller{}}
		for _, q := range queues {
			s.Queues[q] = &health.Queue{}
		}
		pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", Labels: labels},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: image, Args: args}}}}
		return model.Target{Facts: model.Facts{Target: target.Target{Namespace: "ns", Name: "p", Container: "c"}, Pod: pod},
			Snapshots: []*health.Snapshot{s}}
	}
	for _, tc := range []struct {
		what string
		t    model.Target
		want bool
	}{
		{"kube-controller-manager", at(map[string]string{"component": "kube-controller-manager"}, "", nil, "replicaset"), true},
		{"flux", at(nil, "ghcr.io/fluxcd/source-controller:v1.9.1", []string{"--watch-all-namespaces=true"}, "gitrepository"), true},
		{"flux restricted", at(nil, "ghcr.io/fluxcd/source-controller:v1.9.1", []string{"--watch-all-namespaces=false"}, "gitrepository"), false},
		{"unknown operator", at(nil, "example.com/op:v1", []string{"--namespace=ns"}, "workload"), false},
	} {
		cs := Controllers([]model.Target{tc.t})
		if len(cs) != 1 || cs[0].ClusterWide != tc.want {
			t.Errorf("%s: %+v, want cluster-wide %v", tc.what, cs, tc.want)
		}
	}
}
