package collect

import (
	"context"
	"fmt"
	"strings"
	"testing"

	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
)

// The namespaces a kind may be listed in are found when namespaces may be listed: the
// report's namespace first, at most objects.MaxNamespaces checked (the rest counted), each
// asked once per kind; without list namespaces, an error naming it.
func TestMayListEach(t *testing.T) {
	var nss []runtime.Object
	for i := 0; i < 60; i++ {
		nss = append(nss, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("ns-%02d", i)}})
	}
	client := fake.NewClientset(nss...)
	listNamespaces := true
	reviews := 0
	client.PrependReactor("create", "selfsubjectaccessreviews", func(a k8stesting.Action) (bool, runtime.Object, error) {
		r := a.(k8stesting.CreateAction).GetObject().(*authorizationv1.SelfSubjectAccessReview)
		ra := r.Spec.ResourceAttributes
		reviews++
		switch ra.Resource {
		case "namespaces":
			r.Status.Allowed = listNamespaces
		case "workloads":
			r.Status.Allowed = ra.Namespace == "ns-59" || ra.Namespace == "ns-03"
		}
		return true, r, nil
	})
	c := &cluster{kube: &Kube{Client: client}}
	k := objects.Kind{Group: "demo.ctrldiag.dev", Resource: "workloads", Namespaced: true}
	got, unchecked, err := c.mayListEach(context.Background(), k, "ns-59")
	if err != nil || strings.Join(got, ",") != "ns-59,ns-03" || unchecked != 10 {
		t.Errorf("namespaces %q, unchecked %d, err %v; want ns-59 (the report's) then ns-03, 10 unchecked", got, unchecked, err)
	}
	if reviews != 1+objects.MaxNamespaces {
		t.Errorf("%d access reviews, want %d", reviews, 1+objects.MaxNamespaces)
	}
	if _, _, _ = c.mayListEach(context.Background(), k, "ns-59"); reviews != 1+objects.MaxNamespaces {
		t.Errorf("asked again: %d access reviews", reviews)
	}

	listNamespaces = false
	c = &cluster{kube: &Kube{Client: client}}
	if got, _, err := c.mayListEach(context.Background(), k, "ns-59"); err == nil || err.Error() != "needs RBAC verb list on namespaces" || got != nil {
		t.Errorf("without list namespaces: %q, %v", got, err)
	}
}
