package collect

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8stesting "k8s.io/client-go/testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/discover"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// operatorPod is a running operator pod in namespace ops, ready or not.
func operatorPod(name string, ready bool) *corev1.Pod {
	status := corev1.ConditionTrue
	if !ready {
		status = corev1.ConditionFalse
	}
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: name},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "manager", Ports: []corev1.ContainerPort{{Name: "metrics", ContainerPort: 8080}}}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, PodIP: "198.18.1.3",
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: status}}},
	}
}

func ids(ts []target.Target) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.ID())
	}
	return out
}

// A rollout: the pod read first is deleted and a new one is ready. Rediscover reads the new
// one from then on and drops the old one, without asking the access reviews again.
func TestRediscoverFollowsARollout(t *testing.T) {
	kube := fakeCluster(t)
	k, _ := kube()
	p, inv := open(t, kube)
	if got := ids(inv.Targets); len(got) != 1 || got[0] != "ops/op:8080" {
		t.Fatalf("opened with %v", got)
	}
	reviews := 0
	k.Client.(interface {
		PrependReactor(verb, resource string, fn k8stesting.ReactionFunc)
	}).PrependReactor("create", "selfsubjectaccessreviews", func(k8stesting.Action) (bool, runtime.Object, error) {
		reviews++
		return false, nil, nil
	})
	ctx := context.Background()
	pods := k.Client.CoreV1().Pods("ops")
	if _, err := pods.Create(ctx, operatorPod("op-new", true), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := pods.Delete(ctx, "op", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if !p.Rediscovers() {
		t.Fatal("a discovered source does not rediscover")
	}
	inv, err := p.Rediscover(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(inv.Targets); len(got) != 1 || got[0] != "ops/op-new:8080" || inv.Targets[0].Via != target.ViaProxy {
		t.Fatalf("after the rollout: targets %v (%+v)", got, inv.Targets)
	}
	if len(p.pages) != 1 || p.pages[0].Target().ID() != "ops/op-new:8080" {
		t.Errorf("pages read: %d", len(p.pages))
	}
	if inv.Pods["ops/op-new"] == nil || inv.Cluster == nil {
		t.Errorf("the new inventory lacks the new pod or the cluster: %+v", inv)
	}
	if reviews != 0 {
		t.Errorf("%d access reviews: the namespace's ways were checked when opening", reviews)
	}
}

// A pod read before that is still running but not ready stays a target (its row stays, an
// error when it fails to answer); a pod that was never read and is not ready is not taken.
func TestRediscoverKeepsAPodThatIsOnlyNotReady(t *testing.T) {
	kube := fakeCluster(t)
	k, _ := kube()
	p, _ := open(t, kube)
	ctx := context.Background()
	pods := k.Client.CoreV1().Pods("ops")
	if _, err := pods.Update(ctx, operatorPod("op", false), metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := pods.Create(ctx, operatorPod("op-starting", false), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	inv, err := p.Rediscover(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(inv.Targets); len(got) != 1 || got[0] != "ops/op:8080" {
		t.Errorf("targets %v: the pod read before stays, the unready new one waits", got)
	}
}

// Named targets are not found again: Rediscover leaves the inventory as it was.
func TestRediscoverLeavesNamedTargets(t *testing.T) {
	p := New(Config{Cluster: true, Via: target.ViaAuto, Discover: discover.Options{Namespace: "ops", Explicit: []string{"pod/op"}}}, fakeCluster(t))
	inv, err := p.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if p.Rediscovers() {
		t.Error("named targets rediscover")
	}
	again, err := p.Rediscover(context.Background())
	if err != nil || again != inv {
		t.Errorf("rediscovered named targets: %v %v", again, err)
	}
}
