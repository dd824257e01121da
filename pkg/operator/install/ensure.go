package install

import (
	"context"
	"fmt"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// EnsureCRD installs the Workload CRD when it is missing and waits until it is established.
// It returns installed=false when the CRD exists, or when the caller may not read CRDs (an
// installed operator's ServiceAccount may read only its own CRD).
func EnsureCRD(ctx context.Context, c client.Client) (installed bool, err error) {
	var existing unstructured.Unstructured
	existing.SetGroupVersionKind(apiextensionsv1.SchemeGroupVersion.WithKind("CustomResourceDefinition"))
	err = c.Get(ctx, types.NamespacedName{Name: CRDName}, &existing)
	switch {
	case err == nil:
		return false, nil
	case apierrors.IsForbidden(err):
		return false, nil // cannot tell: assume it was installed with the operator
	case !apierrors.IsNotFound(err):
		return false, fmt.Errorf("look up CRD %s: %w", CRDName, err)
	}
	crd := CRD()
	if err := c.Apply(ctx, client.ApplyConfigurationFromUnstructured(crd),
		client.FieldOwner(FieldOwner), client.ForceOwnership); err != nil {
		return false, fmt.Errorf("install CRD %s (or run `kubectl ctrldiag operator install` as an admin): %w", CRDName, err)
	}
	err = wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		var got apiextensionsv1.CustomResourceDefinition
		if err := c.Get(ctx, types.NamespacedName{Name: CRDName}, &got); err != nil {
			return false, client.IgnoreNotFound(err)
		}
		for _, cond := range got.Status.Conditions {
			if cond.Type == apiextensionsv1.Established && cond.Status == apiextensionsv1.ConditionTrue {
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		return true, fmt.Errorf("CRD %s was applied but did not become established within 30s: %w", CRDName, err)
	}
	return true, nil
}
