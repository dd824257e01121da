package apiserver

import (
	"context"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

func TestRead(t *testing.T) {
	ignore := admissionregistrationv1.Ignore
	timeout := int32(3)
	ns := admissionregistrationv1.NamespacedScope
	client := fake.NewClientset(
		&admissionregistrationv1.ValidatingWebhookConfiguration{ObjectMeta: metav1.ObjectMeta{Name: "slow"},
			Webhooks: []admissionregistrationv1.ValidatingWebhook{{Name: "slow-pods.example.com",
				Rules: []admissionregistrationv1.RuleWithOperations{{Operations: []admissionregistrationv1.OperationType{"CREATE"},
					Rule: admissionregistrationv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"pods"}, Scope: &ns}}},
				NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}},
				ClientConfig:      admissionregistrationv1.WebhookClientConfig{CABundle: []byte("secret-ish")}}}},
		&admissionregistrationv1.MutatingWebhookConfiguration{ObjectMeta: metav1.ObjectMeta{Name: "defaults"},
			Webhooks: []admissionregistrationv1.MutatingWebhook{{Name: "defaults.example.com", TimeoutSeconds: &timeout, FailurePolicy: &ignore,
				NamespaceSelector: &metav1.LabelSelector{}}}},
	)
	v := ReadWebhooks(context.Background(), client)
	if len(v.Notes) != 0 || len(v.Webhooks) != 2 {
		t.Fatalf("read %+v", v)
	}
	slow := v.Find("slow-pods.example.com", "validating")
	if slow == nil || slow.Configuration != "ValidatingWebhookConfiguration/slow" || slow.Policy() != "timeoutSeconds 10, failurePolicy Fail" ||
		slow.NamespaceSelector != "team=a" || !slow.Intercepts(Write{Operation: "CREATE", Resource: "pods", Namespaced: true}) {
		t.Errorf("validating webhook read as %+v", slow)
	}
	def := v.Find("defaults.example.com", "admit")
	if def == nil || def.Policy() != "timeoutSeconds 3, failurePolicy Ignore" || def.NamespaceSelector != "" {
		t.Errorf("mutating webhook read as %+v", def)
	}
	if v.Find("defaults.example.com", "validating") != nil {
		t.Error("a mutating webhook was found as a validating one")
	}
}

func TestReadWebhooksForbidden(t *testing.T) {
	client := fake.NewClientset()
	client.PrependReactor("list", "validatingwebhookconfigurations", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Group: "admissionregistration.k8s.io", Resource: "validatingwebhookconfigurations"}, "", nil)
	})
	v := ReadWebhooks(context.Background(), client)
	if len(v.Notes) != 1 || v.Notes[0] != "the validatingwebhookconfigurations were not read: needs RBAC verb list on validatingwebhookconfigurations.admissionregistration.k8s.io" {
		t.Errorf("notes %q", v.Notes)
	}
}
