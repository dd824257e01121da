package install

import (
	"context"
	"fmt"
	"io"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// FieldOwner is the server-side apply field manager of `operator install`.
const FieldOwner = "kubectl-ctrldiag"

// Apply server-side applies objs in order (idempotent) and reports each on progress.
func Apply(ctx context.Context, c client.Client, objs []*unstructured.Unstructured, progress io.Writer) error {
	for _, u := range objs {
		if err := c.Apply(ctx, client.ApplyConfigurationFromUnstructured(u.DeepCopy()),
			client.FieldOwner(FieldOwner), client.ForceOwnership); err != nil {
			return fmt.Errorf("apply %s: %w", describe(u), err)
		}
		fmt.Fprintf(progress, "%s applied\n", describe(u))
	}
	return nil
}

// Delete removes objs in reverse order; objects that are already gone are skipped.
func Delete(ctx context.Context, c client.Client, objs []*unstructured.Unstructured, progress io.Writer) error {
	for i := len(objs) - 1; i >= 0; i-- {
		u := objs[i].DeepCopy()
		err := c.Delete(ctx, u, client.PropagationPolicy("Background"))
		switch {
		case err == nil:
			fmt.Fprintf(progress, "%s deleted\n", describe(u))
		case apierrors.IsNotFound(err) || meta.IsNoMatchError(err):
			fmt.Fprintf(progress, "%s not found\n", describe(u))
		default:
			return fmt.Errorf("delete %s: %w", describe(u), err)
		}
	}
	return nil
}

// describe names an object the way kubectl does: kind/name (namespace ns).
func describe(u *unstructured.Unstructured) string {
	s := strings.ToLower(u.GetKind()) + "/" + u.GetName()
	if ns := u.GetNamespace(); ns != "" {
		s += " (namespace " + ns + ")"
	}
	return s
}
