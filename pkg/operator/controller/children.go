package controller

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/operator/api/v1alpha1"
)

// payloadKey is the data key of a child ConfigMap that holds spec.payloadBytes bytes.
const payloadKey = "payload"

// ChildName is the name of the i-th child ConfigMap of a Workload.
func ChildName(workload string, i int) string {
	return workload + "-child-" + strconv.Itoa(i)
}

// ensureChildren makes the Workload's child ConfigMaps match spec.children and
// spec.payloadBytes, and returns how many exist afterwards.
func ensureChildren(ctx context.Context, c client.Client, w *v1alpha1.Workload) (int32, error) {
	var list corev1.ConfigMapList
	if err := c.List(ctx, &list, client.InNamespace(w.Namespace), client.MatchingLabels{LabelWorkload: w.Name}); err != nil {
		return 0, fmt.Errorf("list children of workload %s/%s: %w", w.Namespace, w.Name, err)
	}
	have := make(map[string]*corev1.ConfigMap, len(list.Items))
	for i := range list.Items {
		have[list.Items[i].Name] = &list.Items[i]
	}
	want := int(w.Spec.Children)
	payload := strings.Repeat("x", int(w.Spec.PayloadBytes))
	for i := 0; i < want; i++ {
		name := ChildName(w.Name, i)
		cm, ok := have[name]
		delete(have, name)
		if ok {
			if cm.Data[payloadKey] == payload {
				continue
			}
			cm.Data = map[string]string{payloadKey: payload}
			if err := c.Update(ctx, cm); err != nil {
				return 0, fmt.Errorf("update child ConfigMap %s/%s: %w", cm.Namespace, cm.Name, err)
			}
			continue
		}
		cm = &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: w.Namespace,
				Labels: map[string]string{LabelManaged: "true", LabelWorkload: w.Name}},
			Data: map[string]string{payloadKey: payload},
		}
		if err := controllerutil.SetControllerReference(w, cm, c.Scheme()); err != nil {
			return 0, fmt.Errorf("set owner of child ConfigMap %s: %w", name, err)
		}
		if err := c.Create(ctx, cm); err != nil && !apierrors.IsAlreadyExists(err) { // cache behind: fine
			return 0, fmt.Errorf("create child ConfigMap %s/%s: %w", w.Namespace, name, err)
		}
	}
	for _, cm := range have { // children beyond spec.children
		if err := c.Delete(ctx, cm); client.IgnoreNotFound(err) != nil {
			return 0, fmt.Errorf("delete surplus child ConfigMap %s/%s: %w", cm.Namespace, cm.Name, err)
		}
	}
	return int32(want), nil
}
