//go:build envtest

package operator_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator"
)

// TestSecureMetrics checks the kubebuilder-style HTTPS endpoint: 401 without a token, 403
// for a token not allowed to get /metrics, 200 for one bound to a metrics-reader role. It
// also checks /healthz and /readyz.
func TestSecureMetrics(t *testing.T) {
	in := start(t, "secure", "healthy", func(c *operator.Config) { c.MetricsSecure = true })
	ctx := context.Background()
	for _, sa := range []string{"reader", "stranger"} {
		if _, err := kube.CoreV1().ServiceAccounts(in.ns).Create(ctx,
			&corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: sa}}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := kube.RbacV1().ClusterRoles().Create(ctx, &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: "envtest-metrics-reader"},
		Rules:      []rbacv1.PolicyRule{{NonResourceURLs: []string{"/metrics"}, Verbs: []string{"get"}}},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := kube.RbacV1().ClusterRoleBindings().Create(ctx, &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "envtest-metrics-reader"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "envtest-metrics-reader"},
		Subjects:   []rbacv1.Subject{{Kind: "ServiceAccount", Name: "reader", Namespace: in.ns}},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	token := func(sa string) string {
		tr, err := kube.CoreV1().ServiceAccounts(in.ns).CreateToken(ctx, sa,
			&authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: ptr(int64(600))}},
			metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("token for %s: %v", sa, err)
		}
		return tr.Status.Token
	}
	reader := token("reader")
	f := in.waitForController(t, reader)
	if _, ok := f["workqueue_depth"]; !ok {
		t.Error("authorized scrape has no workqueue_depth")
	}
	if code, _, _ := scrape(in.url(), ""); code != http.StatusUnauthorized {
		t.Errorf("no token: HTTP %d, want 401", code)
	}
	if code, _, _ := scrape(in.url(), token("stranger")); code != http.StatusForbidden {
		t.Errorf("token without metrics-reader: HTTP %d, want 403", code)
	}
	if code, _, _ := scrape("http://"+in.metrics+"/metrics", ""); code == http.StatusOK {
		t.Error("plain HTTP answered on the secure port")
	}
	for _, path := range []string{"/healthz", "/readyz"} {
		deadline := time.Now().Add(10 * time.Second)
		for {
			resp, err := http.Get("http://" + in.health + path)
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					break
				}
			}
			if time.Now().After(deadline) {
				t.Errorf("%s not 200 within 10s (%v)", path, err)
				break
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
}

func ptr[T any](v T) *T { return &v }
