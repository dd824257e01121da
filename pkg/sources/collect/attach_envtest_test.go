//go:build envtest

// Run: KUBEBUILDER_ASSETS=/path/to/dir/with/kube-apiserver+etcd go test -tags envtest ./pkg/sources/collect/
package collect_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/parse"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/run"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/collect"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// Against a real API server: the series' pod is found and given to its target with its
// limits, the live source's cluster reader answers, and a user without RBAC to list pods gets
// the sections said absent, not an error.
func TestWithClusterAgainstAnAPIServer(t *testing.T) {
	if os.Getenv("KUBEBUILDER_ASSETS") == "" {
		t.Skip("set KUBEBUILDER_ASSETS to a folder holding kube-apiserver and etcd")
	}
	env := &envtest.Environment{}
	cfg, err := env.Start()
	if err != nil {
		t.Fatalf("start envtest: %v", err)
	}
	t.Cleanup(func() { _ = env.Stop() })
	ctx := context.Background()
	admin := kubernetes.NewForConfigOrDie(cfg)
	if _, err := admin.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "ops"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "op-7d9f"},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "manager", Image: "op",
			Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("150Mi")}}}}}}
	if _, err := admin.CoreV1().Pods("ops").Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	kubeAs := func(c *rest.Config) func() (*collect.Kube, error) {
		return func() (*collect.Kube, error) {
			return &collect.Kube{Config: c, Client: kubernetes.NewForConfigOrDie(c)}, nil
		}
	}
	podsOf := func(named []string, found map[string]bool, where string) string {
		if found["ops/op-7d9f"] {
			return ""
		}
		return "not found" + where
	}
	newW := func(k func() (*collect.Kube, error)) *collect.WithCluster {
		return &collect.WithCluster{Inner: &collect.SeriesSource{}, Kube: k, Pods: podsOf, Now: time.Now,
			Absent: func([]target.Target) string { return "" }}
	}

	w := newW(kubeAs(cfg))
	inv, err := w.Open(ctx)
	if err != nil || inv.ClusterAbsent != "" || inv.Cluster == nil {
		t.Fatalf("Open: %v, clusterAbsent %q, cluster %v: want the cluster read", err, inv.ClusterAbsent, inv.Cluster)
	}
	results := w.Read(ctx, source.Options{})
	if p := results[0].Pod; p == nil || p.Spec.Containers[0].Resources.Limits.Memory().String() != "150Mi" {
		t.Errorf("the target's pod: %v, want ops/op-7d9f with its 150Mi limit", p)
	}
	view := inv.Cluster.Objects(ctx, "ops", []objects.Controller{{Target: results[0].ID(), Name: "pod", Runtime: "controller-runtime"}}, nil)
	if len(view.Kinds) != 1 || view.Kinds[0].Error != "" || view.Kinds[0].Total != 1 {
		t.Errorf("objects of controller pod in ops: %+v (notes %q), want the one pod", view.Kinds, view.Notes)
	}

	// The whole report, its series read twice 10 s apart: section 1 lists the pod, section 5
	// its limit, section 6 is read, and json says which cluster, and when.
	rep, err := run.ReportWith(ctx, run.ReportConfig{Thresholds: findings.DefaultThresholds(), Scope: source.Scope{Namespace: "ops"}},
		run.Env{Source: withPages(t, newW(kubeAs(cfg)))})
	if err != nil {
		t.Fatalf("report: %v", err)
	}
	r := rep.Report
	if len(r.Pods) != 1 || r.Pods[0].Name != "op-7d9f" || r.ClusterRead == "" || r.ClusterAbsent != "" || r.Objects == nil {
		t.Errorf("report: pods %+v, clusterRead %q, clusterAbsent %q, objects %v: want the pod and the cluster read", r.Pods, r.ClusterRead, r.ClusterAbsent, r.Objects)
	}
	if len(r.Resources) != 1 || r.Resources[0].MemoryLimitBytes == nil || *r.Resources[0].MemoryLimitBytes != 150<<20 {
		t.Errorf("report: resources %+v, want the pod's 150Mi limit", r.Resources)
	}

	nobody, err := env.ControlPlane.AddUser(envtest.User{Name: "nobody"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	w = newW(kubeAs(nobody.Config()))
	inv, err = w.Open(ctx)
	if err != nil || !strings.Contains(inv.ClusterAbsent, "you may not list pods in namespace ops") || inv.Cluster != nil {
		t.Errorf("without RBAC: Open %v, clusterAbsent %q, cluster %v: want the sections said absent", err, inv.ClusterAbsent, inv.Cluster)
	}
}

// withPages makes w's series source answer with two samples of the reference operator's page
// for its first target, 10 s apart, as a Prometheus server rebuilds them.
func withPages(t *testing.T, w *collect.WithCluster) *collect.WithCluster {
	t.Helper()
	var samples []source.Sample
	for i, name := range []string{"controller-runtime-1.prom", "controller-runtime-2.prom"} {
		f, err := os.Open("../../../testdata/pages/" + name)
		if err != nil {
			t.Fatal(err)
		}
		page, err := parse.Parse(name, f, nil)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		samples = append(samples, source.Sample{Families: page.Families, Time: time.Now().Add(time.Duration(i-1) * 10 * time.Second)})
	}
	w.Inner = &pagedSeries{samples: samples}
	return w
}

// pagedSeries is SeriesSource with one target, read as the samples given.
type pagedSeries struct {
	collect.SeriesSource
	samples []source.Sample
	inv     *source.Inventory
}

func (p *pagedSeries) Open(ctx context.Context) (*source.Inventory, error) {
	inv, err := p.SeriesSource.Open(ctx)
	inv.Targets = inv.Targets[:1]
	p.inv = inv
	return inv, err
}

func (p *pagedSeries) Read(context.Context, source.Options) []source.Result {
	return []source.Result{{Target: p.inv.Targets[0], Samples: p.samples, Window: 10 * time.Second}}
}
