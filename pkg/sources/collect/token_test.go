package collect

import (
	"context"
	"strings"
	"testing"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

func TestFromServiceAccount(t *testing.T) {
	client := fake.NewClientset(&corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "scraper"}})
	var gotExp int64
	client.PrependReactor("create", "serviceaccounts", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if a.GetSubresource() != "token" {
			return false, nil, nil
		}
		tr := a.(k8stesting.CreateAction).GetObject().(*authenticationv1.TokenRequest)
		gotExp = *tr.Spec.ExpirationSeconds
		tr.Status.Token = "minted"
		return true, tr, nil
	})
	tok, err := TokenFromServiceAccount(context.Background(), client, "ops", "scraper")
	if err != nil || tok != "minted" || gotExp != TokenLifetime {
		t.Fatalf("token %q, exp %d, err %v", tok, gotExp, err)
	}
}

func TestParseServiceAccount(t *testing.T) {
	if ns, n, err := ParseServiceAccount("ops/scraper"); err != nil || ns != "ops" || n != "scraper" {
		t.Errorf("ops/scraper: %q %q %v", ns, n, err)
	}
	for _, bad := range []string{"scraper", "/x", "ops/", "a/b/c"} {
		if _, _, err := ParseServiceAccount(bad); err == nil || !strings.Contains(err.Error(), "NAMESPACE/SERVICEACCOUNT") {
			t.Errorf("%q: err = %v", bad, err)
		}
	}
}
