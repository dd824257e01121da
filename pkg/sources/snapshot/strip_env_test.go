package snapshot

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// Strip keeps the settings pkg/facts/knobs reads from the environment and that a value comes from
// elsewhere, and drops every other value and every reference.
func TestStripKeepsKnobSettings(t *testing.T) {
	p := &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Env: []corev1.EnvVar{
		{Name: "ARGOCD_APPLICATION_CONTROLLER_STATUS_PROCESSORS", Value: "50"},
		{Name: "ARGOCD_APPLICATION_CONTROLLER_OPERATION_PROCESSORS", ValueFrom: &corev1.EnvVarSource{
			ConfigMapKeyRef: &corev1.ConfigMapKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "argocd-cmd-params-cm"}, Key: "controller.operation.processors"}}},
		{Name: "API_KEY", Value: "s3cr3t"},
	}}}}}
	env := Strip(p).Spec.Containers[0].Env
	if env[0].Value != "50" {
		t.Errorf("the knob's setting was not kept: %+v", env[0])
	}
	if env[1].ValueFrom == nil || env[1].ValueFrom.ConfigMapKeyRef != nil || env[1].Value != "" {
		t.Errorf("a value from elsewhere: %+v", env[1])
	}
	if env[2].Value != "" || env[2].ValueFrom != nil {
		t.Errorf("a secret kept: %+v", env[2])
	}
}
