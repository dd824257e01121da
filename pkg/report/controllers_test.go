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
// restrict it, reconcile every namespace; an unknown operator restricted by its flags is taken
// at its namespace, one its flags do not restrict is left to its pod's ServiceAccount's RBAC
// (the default one when the pod names none), and a known one is never left to its RBAC.
func TestControllersClusterWide(t *testing.T) {
	at := func(labels map[string]string, image string, args []string, queues ...string) model.Target {
		return withAccount(labels, image, args, "", queues...)
	}
	for _, tc := range []struct {
		what    string
		t       model.Target
		want    bool
		account string
	}{
		{"kube-controller-manager", at(map[string]string{"component": "kube-controller-manager"}, "", nil, "replicaset"), true, ""},
		{"flux", at(nil, "ghcr.io/fluxcd/source-controller:v1.9.1", []string{"--watch-all-namespaces=true"}, "gitrepository"), true, ""},
		{"flux restricted", at(nil, "ghcr.io/fluxcd/source-controller:v1.9.1", []string{"--watch-all-namespaces=false"}, "gitrepository"), false, ""},
		{"unknown operator", at(nil, "example.com/op:v1", []string{"--namespace=ns"}, "workload"), false, ""},
		{"unknown operator, -n", at(nil, "example.com/op:v1", []string{"run", "-n", "ns"}, "workload"), false, ""},
		{"unknown operator, -n but all namespaces", at(nil, "example.com/op:v1", []string{"run", "-n", "ns", "--watch-all-namespaces"}, "workload"), false, "ns/default"},
		{"unknown operator, no flags", withAccount(nil, "example.com/op:v1", nil, "op", "workload"), false, "ns/op"},
		{"unknown operator, default account", at(nil, "example.com/op:v1", []string{"--leader-elect"}, "workload"), false, "ns/default"},
	} {
		cs := Controllers([]model.Target{tc.t})
		if len(cs) != 1 || cs[0].ClusterWide != tc.want || cs[0].ServiceAccount != tc.account {
			t.Errorf("%s: %+v, want cluster-wide %v, ServiceAccount %q", tc.what, cs, tc.want, tc.account)
		}
	}
}

// withAccount is a target whose pod runs as ServiceAccount account ("" for none named).
func withAccount(labels map[string]string, image string, args []string, account string, queues ...string) model.Target {
	{
		s := &health.Snapshot{Queues: map[string]*health.Queue{}, Controllers: map[string]*health.Controller{}}
		for _, q := range queues {
			s.Queues[q] = &health.Queue{}
		}
		pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", Labels: labels},
			Spec: corev1.PodSpec{ServiceAccountName: account, Containers: []corev1.Container{{Name: "c", Image: image, Args: args}}}}
		return model.Target{Facts: model.Facts{Target: target.Target{Namespace: "ns", Name: "p", Container: "c"}, Pod: pod},
			Snapshots: []*health.Snapshot{s}}
	}
}
