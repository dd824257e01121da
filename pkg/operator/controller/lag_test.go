package controller

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestChangedAt(t *testing.T) {
	created := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	managed := created.Add(time.Minute)
	annotated := managed.Add(1500 * time.Millisecond)
	obj := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{CreationTimestamp: metav1.NewTime(created)}}
	if got := changedAt(obj); !got.Equal(created) {
		t.Errorf("creation only: %v", got)
	}
	mt := metav1.NewTime(managed)
	obj.ManagedFields = []metav1.ManagedFieldsEntry{{Time: &mt}}
	if got := changedAt(obj); !got.Equal(managed) {
		t.Errorf("managed fields: %v", got)
	}
	obj.Annotations = map[string]string{AnnotationChangedAt: annotated.Format(time.RFC3339Nano)}
	if got := changedAt(obj); !got.Equal(annotated) {
		t.Errorf("annotation: %v", got)
	}
}
