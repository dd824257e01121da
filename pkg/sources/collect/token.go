// This file mints a short-lived bearer token for a ServiceAccount with the TokenRequest API
// (--token-from-sa NS/NAME), for metrics endpoints that authenticate scrapers the way
// kubebuilder's scaffold does (TokenReview + SubjectAccessReview). Tokens are only returned,
// never printed or logged.

package collect

import (
	"context"
	"fmt"
	"strings"

	authenticationv1 "k8s.io/api/authentication/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// TokenLifetime is the requested expiry: the shortest the API server accepts (10 minutes).
const TokenLifetime int64 = 600

// ParseServiceAccount splits "NS/NAME".
func ParseServiceAccount(s string) (ns, name string, err error) {
	ns, name, ok := strings.Cut(s, "/")
	if !ok || ns == "" || name == "" || strings.Contains(name, "/") {
		return "", "", fmt.Errorf("--token-from-sa %q: use NAMESPACE/SERVICEACCOUNT", s)
	}
	return ns, name, nil
}

// TokenFromServiceAccount requests a token for the ServiceAccount ns/name.
func TokenFromServiceAccount(ctx context.Context, client kubernetes.Interface, ns, name string) (string, error) {
	exp := TokenLifetime
	tr, err := client.CoreV1().ServiceAccounts(ns).CreateToken(ctx, name,
		&authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: &exp}},
		metav1.CreateOptions{})
	switch {
	case apierrors.IsNotFound(err):
		return "", fmt.Errorf("service account %s/%s not found: create it and bind it to a ClusterRole that may get /metrics", ns, name)
	case apierrors.IsForbidden(err):
		return "", fmt.Errorf("you may not create serviceaccounts/token in namespace %s (needed by --token-from-sa): %s", ns, apierrors.ReasonForError(err))
	case err != nil:
		return "", fmt.Errorf("request a token for service account %s/%s: %w", ns, name, err)
	}
	if tr.Status.Token == "" {
		return "", fmt.Errorf("the API server returned an empty token for service account %s/%s", ns, name)
	}
	return tr.Status.Token, nil
}
