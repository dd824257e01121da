package report

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
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

// A WATCH_NAMESPACE the container takes from elsewhere counts as resolved: a ConfigMap that
// sets it restricts the operator, one that sets it empty leaves it to its RBAC; one that could
// not be had (a Secret) keeps it in its namespace, saying why, for a note when its RBAC would
// widen it. Without a resolution (an older snapshot) a valueFrom restricts it, as before.
func TestControllersWatchEnv(t *testing.T) {
	at := func(c corev1.Container, w *knobs.WatchEnv) model.Target {
		m := withAccount(nil, "example.com/op:v1", nil, "op", "workload")
		c.Name, c.Image = "c", "example.com/op:v1"
		m.Pod.Spec.Containers = []corev1.Container{c}
		if w != nil {
			m.WatchEnv = map[string]*knobs.WatchEnv{"c": w}
		}
		return m
	}
	fromCM := corev1.Container{EnvFrom: []corev1.EnvFromSource{{ConfigMapRef: &corev1.ConfigMapEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: "env"}}}}}
	valueFrom := corev1.Container{Env: []corev1.EnvVar{{Name: "WATCH_NAMESPACE", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{Key: "ns"}}}}}
	secret := &knobs.WatchEnv{Values: map[string]string{"WATCH_NAMESPACES": ""}, Unresolved: []string{"WATCH_NAMESPACE"},
		Notes: []string{"WATCH_NAMESPACE comes from Secret s, which is never read"}}
	for _, tc := range []struct {
		what            string
		t               model.Target
		account, unsure string
	}{
		{"envFrom, unresolved", at(fromCM, nil), "ns/op", ""},
		{"envFrom a ConfigMap that sets it", at(fromCM, &knobs.WatchEnv{Values: map[string]string{"WATCH_NAMESPACE": "ns", "WATCH_NAMESPACES": ""}}), "", ""},
		{"envFrom a ConfigMap that sets it empty", at(fromCM, &knobs.WatchEnv{Values: map[string]string{"WATCH_NAMESPACE": "", "WATCH_NAMESPACES": ""}}), "ns/op", ""},
		{"valueFrom, unresolved", at(valueFrom, nil), "", ""},
		{"valueFrom a Secret", at(valueFrom, secret), "ns/op", secret.Notes[0]},
		{"a flag restricts it whatever the Secret says", at(corev1.Container{Args: []string{"--namespace=ns"}, Env: valueFrom.Env}, secret), "", ""},
	} {
		cs := Controllers([]model.Target{tc.t})
		if len(cs) != 1 || cs[0].ClusterWide || cs[0].ServiceAccount != tc.account || cs[0].Unsure != tc.unsure {
			t.Errorf("%s: %+v, want ServiceAccount %q, unsure %q", tc.what, cs, tc.account, tc.unsure)
		}
	}
}
