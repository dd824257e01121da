package access

import (
	"context"
	"strings"
	"testing"

	authorizationv1 "k8s.io/api/authorization/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

func TestMissingAsksOneReviewEachAndReportsDenied(t *testing.T) {
	client := fake.NewClientset()
	var asked []string
	client.PrependReactor("create", "selfsubjectaccessreviews", func(a k8stesting.Action) (bool, runtime.Object, error) {
		r := a.(k8stesting.CreateAction).GetObject().(*authorizationv1.SelfSubjectAccessReview)
		var key string
		if ra := r.Spec.ResourceAttributes; ra != nil {
			key = ra.Verb + " " + ra.Resource + "/" + ra.Subresource + " " + ra.Namespace
		} else {
			key = r.Spec.NonResourceAttributes.Verb + " " + r.Spec.NonResourceAttributes.Path
		}
		asked = append(asked, key)
		r.Status.Allowed = !strings.Contains(key, "portforward")
		return true, r, nil
	})
	missing, err := Missing(context.Background(), client, []Permission{ListPods("ops"), PortForwardPods("ops"), APIServerMetrics()})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(asked, "; "); got != "list pods/ ops; create pods/portforward ops; get /metrics" {
		t.Errorf("asked: %s", got)
	}
	if len(missing) != 1 || missing[0].String() != "create pods/portforward in namespace ops" {
		t.Fatalf("missing = %v", missing)
	}
	msg := (&Error{Missing: missing}).Error()
	if !strings.Contains(msg, "you may not create pods/portforward in namespace ops (to scrape pods through a port-forward)") {
		t.Errorf("message: %s", msg)
	}
}

func TestPermissionString(t *testing.T) {
	for p, want := range map[Permission]string{
		ListPods(""):       "list pods in all namespaces",
		ProxyPods("a"):     "get pods/proxy in namespace a",
		CreateToken("b"):   "create serviceaccounts/token in namespace b",
		APIServerMetrics(): "get /metrics",
		{Verb: "list", Group: "monitoring.coreos.com", Resource: "servicemonitors", Namespace: "c"}: "list servicemonitors.monitoring.coreos.com in namespace c",
	} {
		if got := p.String(); got != want {
			t.Errorf("%+v: %q, want %q", p, got, want)
		}
	}
}
