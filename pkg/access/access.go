// Package access asks the API server, with SelfSubjectAccessReview, whether the current user may
// do what a command is about to do, so that a missing permission is named up front (verb,
// resource, namespace) instead of surfacing as a bare 403 in the middle of a scrape.
package access

import (
	"context"
	"fmt"
	"strings"
	"sync"

	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// Permission is one thing a command needs to do.
type Permission struct {
	Verb        string
	Group       string
	Resource    string
	Subresource string
	// Namespace is where; "" means cluster-wide (all namespaces).
	Namespace string
	// NonResourceURL, when set, replaces Group/Resource (e.g. "/metrics").
	NonResourceURL string
	// For says why the command needs it, e.g. "to scrape pods through the API server's proxy".
	For string
}

// String names the permission as RBAC rules do: "create pods/portforward in namespace ops".
func (p Permission) String() string {
	if p.NonResourceURL != "" {
		return fmt.Sprintf("%s %s", p.Verb, p.NonResourceURL)
	}
	r := p.Resource
	if p.Subresource != "" {
		r += "/" + p.Subresource
	}
	if p.Group != "" {
		r += "." + p.Group
	}
	where := "in all namespaces"
	if p.Namespace != "" {
		where = fmt.Sprintf("in namespace %s", p.Namespace)
	}
	return fmt.Sprintf("%s %s %s", p.Verb, r, where)
}

// Common permissions of the plugin.
func ListPods(ns string) Permission {
	return Permission{Verb: "list", Resource: "pods", Namespace: ns, For: "to find controller pods"}
}
func ListServices(ns string) Permission {
	return Permission{Verb: "list", Resource: "services", Namespace: ns, For: "to find kubebuilder metrics Services"}
}
func ProxyPods(ns string) Permission {
	return Permission{Verb: "get", Resource: "pods", Subresource: "proxy", Namespace: ns,
		For: "to scrape pods through the API server's proxy"}
}
func PortForwardPods(ns string) Permission {
	return Permission{Verb: "create", Resource: "pods", Subresource: "portforward", Namespace: ns,
		For: "to scrape pods through a port-forward"}
}
func CreateToken(ns string) Permission {
	return Permission{Verb: "create", Resource: "serviceaccounts", Subresource: "token", Namespace: ns,
		For: "to mint a token with --token-from-sa"}
}
func APIServerMetrics() Permission {
	return Permission{Verb: "get", NonResourceURL: "/metrics", For: "to read the API server's own metrics"}
}

// maxReviewsInFlight bounds the access reviews Missing sends at once.
const maxReviewsInFlight = 8

// Missing returns the permissions of want that the current user does not have, in the order
// of want. The reviews are sent at once (up to maxReviewsInFlight): each is a round trip to
// the API server, and `-A` over many namespaces asks two per namespace.
func Missing(ctx context.Context, client kubernetes.Interface, want []Permission) ([]Permission, error) {
	allowed := make([]bool, len(want))
	errs := make([]error, len(want))
	sem := make(chan struct{}, maxReviewsInFlight)
	var wg sync.WaitGroup
	for i, p := range want {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			allowed[i], errs[i] = review(ctx, client, p)
		}()
	}
	wg.Wait()
	var missing []Permission
	for i, p := range want {
		if errs[i] != nil {
			return nil, fmt.Errorf("check permission %q: %w", p, errs[i])
		}
		if !allowed[i] {
			missing = append(missing, p)
		}
	}
	return missing, nil
}

// review asks the API server whether the current user has p.
func review(ctx context.Context, client kubernetes.Interface, p Permission) (bool, error) {
	r := &authorizationv1.SelfSubjectAccessReview{}
	if p.NonResourceURL != "" {
		r.Spec.NonResourceAttributes = &authorizationv1.NonResourceAttributes{Path: p.NonResourceURL, Verb: p.Verb}
	} else {
		r.Spec.ResourceAttributes = &authorizationv1.ResourceAttributes{Namespace: p.Namespace, Verb: p.Verb,
			Group: p.Group, Resource: p.Resource, Subresource: p.Subresource}
	}
	got, err := client.AuthorizationV1().SelfSubjectAccessReviews().Create(ctx, r, metav1.CreateOptions{})
	if err != nil {
		return false, err
	}
	return got.Status.Allowed, nil
}

// Error explains missing permissions in one message that names each and what it is for.
type Error struct {
	User    string
	Missing []Permission
}

func (e *Error) Error() string {
	parts := make([]string, 0, len(e.Missing))
	for _, p := range e.Missing {
		parts = append(parts, fmt.Sprintf("%s (%s)", p, p.For))
	}
	who := "you"
	if e.User != "" {
		who = e.User
	}
	return fmt.Sprintf("%s may not %s; ask a cluster admin for a Role granting it, or see docs/rbac.md", who, strings.Join(parts, ", nor "))
}
