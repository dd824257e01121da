package apiserver

import (
	"context"
	"fmt"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// maxConfigurations bounds how many configurations of each kind are read (in pages).
const maxConfigurations = 2000

// ReadWebhooks lists the cluster's Validating- and MutatingWebhookConfigurations, in pages and
// bounded, and keeps of each webhook what says whom it intercepts and how it is bounded (never
// its client configuration). A kind that may not be listed gives a note naming the permission.
func ReadWebhooks(ctx context.Context, client kubernetes.Interface) Admission {
	var v Admission
	api := client.AdmissionregistrationV1()
	err := pages(ctx, func(opts metav1.ListOptions) (string, error) {
		l, err := api.ValidatingWebhookConfigurations().List(ctx, opts)
		if err != nil {
			return "", err
		}
		for _, c := range l.Items {
			for _, w := range c.Webhooks {
				v.Webhooks = append(v.Webhooks, webhook("ValidatingWebhookConfiguration/"+c.Name, "validating", w.Name, w.Rules,
					w.NamespaceSelector, w.ObjectSelector, len(w.MatchConditions), w.TimeoutSeconds, w.FailurePolicy))
			}
		}
		return l.Continue, nil
	})
	v.note(err, "validatingwebhookconfigurations")
	err = pages(ctx, func(opts metav1.ListOptions) (string, error) {
		l, err := api.MutatingWebhookConfigurations().List(ctx, opts)
		if err != nil {
			return "", err
		}
		for _, c := range l.Items {
			for _, w := range c.Webhooks {
				v.Webhooks = append(v.Webhooks, webhook("MutatingWebhookConfiguration/"+c.Name, "admit", w.Name, w.Rules,
					w.NamespaceSelector, w.ObjectSelector, len(w.MatchConditions), w.TimeoutSeconds, w.FailurePolicy))
			}
		}
		return l.Continue, nil
	})
	v.note(err, "mutatingwebhookconfigurations")
	return v
}

// pages calls list with continue tokens until the list ends or maxConfigurations were asked.
func pages(ctx context.Context, list func(metav1.ListOptions) (string, error)) error {
	const pageSize = 250
	opts := metav1.ListOptions{Limit: pageSize}
	for asked := 0; asked < maxConfigurations; asked += pageSize {
		next, err := list(opts)
		if err != nil || next == "" {
			return err
		}
		opts.Continue = next
	}
	return nil
}

func (v *Admission) note(err error, resource string) {
	switch {
	case err == nil:
	case apierrors.IsForbidden(err):
		v.Notes = append(v.Notes, fmt.Sprintf("the %s were not read: needs RBAC verb list on %s.admissionregistration.k8s.io", resource, resource))
	default:
		v.Notes = append(v.Notes, fmt.Sprintf("the %s were not read: %v", resource, err))
	}
}

// webhook is one webhook with the API's defaults applied: timeout 10s, failurePolicy Fail,
// scope "*".
func webhook(config, typ, name string, rules []admissionregistrationv1.RuleWithOperations, ns, obj *metav1.LabelSelector,
	conditions int, timeout *int32, policy *admissionregistrationv1.FailurePolicyType) Webhook {
	w := Webhook{Configuration: config, Name: name, Type: typ, MatchConditions: conditions, TimeoutSeconds: 10, FailurePolicy: "Fail",
		NamespaceSelector: selector(ns), ObjectSelector: selector(obj)}
	if timeout != nil {
		w.TimeoutSeconds = *timeout
	}
	if policy != nil {
		w.FailurePolicy = string(*policy)
	}
	for _, r := range rules {
		rule := Rule{APIGroups: r.APIGroups, Resources: r.Resources, Scope: "*"}
		for _, op := range r.Operations {
			rule.Operations = append(rule.Operations, string(op))
		}
		if r.Scope != nil {
			rule.Scope = string(*r.Scope)
		}
		w.Rules = append(w.Rules, rule)
	}
	return w
}

// selector is the selector as text, "" when it selects everything.
func selector(s *metav1.LabelSelector) string {
	if s == nil {
		return ""
	}
	sel, err := metav1.LabelSelectorAsSelector(s)
	if err != nil {
		return "(invalid selector)"
	}
	if sel.Empty() {
		return ""
	}
	return sel.String()
}
