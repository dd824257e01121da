package collect

import (
	"context"
	"strings"
	"testing"

	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/rest"
	k8stesting "k8s.io/client-go/testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/discover"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// fakeCluster is a fake API server with one ready operator pod in namespace ops, whose access
// reviews deny the subresources in denied ("proxy", "portforward").
func fakeCluster(t *testing.T, denied ...string) func() (*Kube, error) {
	t.Helper()
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "op"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "manager", Ports: []corev1.ContainerPort{{Name: "metrics", ContainerPort: 8080}}}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, PodIP: "198.18.1.2",
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}},
	}
	client := fake.NewClientset(pod)
	client.PrependReactor("create", "selfsubjectaccessreviews", func(a k8stesting.Action) (bool, runtime.Object, error) {
		r := a.(k8stesting.CreateAction).GetObject().(*authorizationv1.SelfSubjectAccessReview)
		r.Status.Allowed = true
		if ra := r.Spec.ResourceAttributes; ra != nil {
			for _, d := range denied {
				if ra.Subresource == d {
					r.Status.Allowed = false
				}
			}
		}
		return true, r, nil
	})
	return func() (*Kube, error) {
		return &Kube{Config: &rest.Config{Host: "https://198.18.0.1:6443"}, Client: client}, nil
	}
}

func open(t *testing.T, kube func() (*Kube, error)) (*Pages, *source.Inventory) {
	t.Helper()
	p := New(Config{Cluster: true, Via: target.ViaAuto, Discover: discover.Options{Namespace: "ops"}}, kube)
	inv, err := p.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return p, inv
}

// With every permission, a pod with a proxyable IP is read through the API server's proxy.
func TestOpenPicksTheProxy(t *testing.T) {
	_, inv := open(t, fakeCluster(t))
	if len(inv.Targets) != 1 || inv.Targets[0].Via != target.ViaProxy || len(inv.Unreadable) != 0 || inv.Cluster == nil {
		t.Fatalf("targets %+v, unreadable %+v", inv.Targets, inv.Unreadable)
	}
}

// When get pods/proxy is denied but port-forward is allowed, the target goes by port-forward
// and says why.
func TestOpenDowngradesToPortForwardWhenTheProxyIsDenied(t *testing.T) {
	_, inv := open(t, fakeCluster(t, "proxy"))
	if len(inv.Targets) != 1 || inv.Targets[0].Via != target.ViaPortForward {
		t.Fatalf("targets %+v, unreadable %+v", inv.Targets, inv.Unreadable)
	}
	if why := inv.Targets[0].ViaReason; !strings.Contains(why, "you may not get pods/proxy in namespace ops") || !strings.Contains(why, "port-forward is allowed") {
		t.Errorf("reason: %q", why)
	}
}

// When neither way is allowed, the target is unreadable, naming the missing permission, and
// Read returns it as a failed result with its pod.
func TestOpenNamesTheMissingPermission(t *testing.T) {
	p, inv := open(t, fakeCluster(t, "proxy", "portforward"))
	if len(inv.Targets) != 0 || len(inv.Unreadable) != 1 {
		t.Fatalf("targets %+v, unreadable %+v", inv.Targets, inv.Unreadable)
	}
	if msg := inv.Unreadable[0].Err.Error(); !strings.Contains(msg, "you may not get pods/proxy in namespace ops") {
		t.Errorf("error: %s", msg)
	}
	rs := p.Read(context.Background(), source.Options{})
	if len(rs) != 1 || rs[0].Err == nil || rs[0].Pod == nil || rs[0].Pod.Name != "op" || rs[0].ID() != "ops/op:8080" {
		t.Errorf("read: %+v", rs)
	}
}

// --via proxy means the proxy only: denied, the target is unreadable rather than forwarded.
func TestOpenKeepsAnExplicitVia(t *testing.T) {
	p := New(Config{Cluster: true, Via: target.ViaProxy, Discover: discover.Options{Namespace: "ops"}}, fakeCluster(t, "proxy"))
	inv, err := p.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(inv.Targets) != 0 || len(inv.Unreadable) != 1 {
		t.Errorf("targets %+v, unreadable %+v", inv.Targets, inv.Unreadable)
	}
}
