package collect

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/rest"
	k8stesting "k8s.io/client-go/testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// seriesSource is a source of two series targets, as a Prometheus server gives them.
type seriesSource struct{ inv *source.Inventory }

func (s *seriesSource) Open(context.Context) (*source.Inventory, error) {
	if s.inv == nil {
		s.inv = &source.Inventory{Targets: []target.Target{
			{Kind: target.KindSeries, Cluster: "prod", Namespace: "ops", Name: "op-7d9f", Job: "op", Instance: "10.0.0.5:8080"},
			{Kind: target.KindSeries, Cluster: "prod", Namespace: "ops", Name: "op-gone", Job: "op", Instance: "10.0.0.6:8080"},
		}}
	}
	return s.inv, nil
}

func (s *seriesSource) Read(context.Context, source.Options) []source.Result {
	out := make([]source.Result, 0, len(s.inv.Targets))
	for _, t := range s.inv.Targets {
		out = append(out, source.Result{Target: t})
	}
	return out
}

func TestWithCluster(t *testing.T) {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "op-7d9f"},
		Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{{RestartCount: 3}}}}
	other := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "unrelated"}}
	kubeOf := func(objs ...runtime.Object) func() (*Kube, error) {
		return func() (*Kube, error) {
			return &Kube{Config: &rest.Config{Host: "https://10.0.0.1:6443"}, Client: fake.NewClientset(objs...)}, nil
		}
	}
	forbidden := func() (*Kube, error) {
		c := fake.NewClientset(pod)
		c.PrependReactor("list", "pods", func(k8stesting.Action) (bool, runtime.Object, error) {
			return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "pods"}, "", errors.New("RBAC"))
		})
		return &Kube{Config: &rest.Config{Host: "https://10.0.0.1:6443"}, Client: c}, nil
	}
	noKubeconfig := func() (*Kube, error) { return nil, errors.New("kubeconfig: no configuration has been provided") }
	now := func() time.Time { return time.Date(2026, 3, 2, 3, 0, 0, 0, time.UTC) }
	podsOf := func(named []string, found map[string]bool, where string) string {
		for _, n := range named {
			if found[n] {
				return ""
			}
		}
		return "none found" + where
	}
	cases := []struct {
		name   string
		absent string
		kube   func() (*Kube, error)
		want   string // the ClusterAbsent wanted; "" = the cluster is read
	}{
		{"the pods are there", "", kubeOf(pod, other), ""},
		{"the report is about the past: the cluster is not asked", "about the past", nil, "about the past"},
		{"no kubeconfig", "", noKubeconfig, "no cluster to read: kubeconfig: no configuration"},
		{"list forbidden", "", forbidden, "you may not list pods in namespace ops"},
		{"another cluster", "", kubeOf(other), "none found (https://10.0.0.1:6443)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := &WithCluster{Inner: &seriesSource{}, Kube: tc.kube, Pods: podsOf, Now: now,
				Absent: func([]target.Target) string { return tc.absent }}
			inv, err := w.Open(context.Background())
			if err != nil {
				t.Fatalf("Open: %v (reading the cluster is best effort)", err)
			}
			results := w.Read(context.Background(), source.Options{})
			if tc.want != "" {
				if !strings.Contains(inv.ClusterAbsent, tc.want) || inv.Cluster != nil || inv.ClusterRead != "" || len(inv.Pods) != 0 {
					t.Errorf("ClusterAbsent %q (want %q), Cluster %v, ClusterRead %q, %d pods", inv.ClusterAbsent, tc.want, inv.Cluster, inv.ClusterRead, len(inv.Pods))
				}
				for _, r := range results {
					if r.Pod != nil {
						t.Errorf("%s has a pod while the cluster is absent", r.ID())
					}
				}
				return
			}
			if inv.ClusterAbsent != "" || inv.Cluster == nil || !strings.Contains(inv.ClusterRead, "https://10.0.0.1:6443") || !strings.Contains(inv.ClusterRead, "2026-03-02T03:00:00Z") {
				t.Fatalf("ClusterAbsent %q, Cluster %v, ClusterRead %q: want the cluster read", inv.ClusterAbsent, inv.Cluster, inv.ClusterRead)
			}
			if len(inv.Pods) != 1 || inv.Pods["ops/op-7d9f"] == nil {
				t.Errorf("pods %v, want only ops/op-7d9f (the unrelated pod is not a target's)", inv.Pods)
			}
			if len(inv.Warnings) != 1 || !strings.Contains(inv.Warnings[0], "ops/op-gone") {
				t.Errorf("warnings %q, want one about ops/op-gone", inv.Warnings)
			}
			if results[0].Pod == nil || results[0].Pod.Status.ContainerStatuses[0].RestartCount != 3 || results[1].Pod != nil {
				t.Errorf("results' pods: %v, %v; want op-7d9f's on the first only", results[0].Pod, results[1].Pod)
			}
		})
	}
}
