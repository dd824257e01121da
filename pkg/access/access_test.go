package access

import (
	"context"
	"errors"
	"sort"
	"strings"
	"sync"
	"testing"

	authorizationv1 "k8s.io/api/authorization/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

func TestMissingAsksOneReviewEachAndReportsDenied(t *testing.T) {
	client := fake.NewClientset()
	var asked []string
	var mu sync.Mutex
	client.PrependReactor("create", "selfsubjectaccessreviews", func(a k8stesting.Action) (bool, runtime.Object, error) {
		r := a.(k8stesting.CreateAction).GetObject().(*authorizationv1.SelfSubjectAccessReview)
		var key string
		if ra := r.Spec.ResourceAttributes; ra != nil {
			key = ra.Verb + " " + ra.Resource + "/" + ra.Subresource + " " + ra.Namespace
		} else {
			key = r.Spec.NonResourceAttributes.Verb + " " + r.Spec.NonResourceAttributes.Path
		}
		mu.Lock()
		asked = append(asked, key)
		mu.Unlock()
		r.Status.Allowed = !strings.Contains(key, "portforward") && !strings.Contains(key, "token")
		return true, r, nil
	})
	missing, err := Missing(context.Background(), client, []Permission{ListPods("ops"), PortForwardPods("ops"), APIServerMetrics(),
		ProxyPods("ops"), CreateToken("ops")})
	if err != nil {
		t.Fatal(err)
	}
	// The reviews go out at once: one each, in any order.
	sort.Strings(asked)
	if got := strings.Join(asked, "; "); got != "create pods/portforward ops; create serviceaccounts/token ops; get /metrics; get pods/proxy ops; list pods/ ops" {
		t.Errorf("asked: %s", got)
	}
	// Missing keeps the order of want.
	if len(missing) != 2 || missing[0].String() != "create pods/portforward in namespace ops" ||
		missing[1].String() != "create serviceaccounts/token in namespace ops" {
		t.Fatalf("missing = %v", missing)
	}
	msg := (&Error{Missing: missing[:1]}).Error()
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

func TestMissingFailsWithTheFailedReview(t *testing.T) {
	client := fake.NewClientset()
	client.PrependReactor("create", "selfsubjectaccessreviews", func(a k8stesting.Action) (bool, runtime.Object, error) {
		r := a.(k8stesting.CreateAction).GetObject().(*authorizationv1.SelfSubjectAccessReview)
		if ra := r.Spec.ResourceAttributes; ra != nil && ra.Subresource == "proxy" {
			return true, nil, errors.New("connection refused")
		}
		r.Status.Allowed = true
		return true, r, nil
	})
	_, err := Missing(context.Background(), client, []Permission{ListPods("ops"), ProxyPods("ops"), APIServerMetrics()})
	if err == nil || !strings.Contains(err.Error(), `check permission "get pods/proxy in namespace ops": connection refused`) {
		t.Fatalf("err = %v", err)
	}
}
