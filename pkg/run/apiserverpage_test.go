package run

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// The webhook configurations are read when an API server's page was read, as the report tells
// one (its target, or a pod labelled kube-apiserver), and their notes matter when it shows
// webhook calls.
func TestAPIServerPage(t *testing.T) {
	calls := &health.Snapshot{Admission: map[health.AdmissionKey]*health.AdmissionWebhook{{Name: "w", Type: "validating", Operation: "CREATE"}: {}}}
	apiserverPod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"component": "kube-apiserver"}}}
	of := func(kind target.Kind, pod *corev1.Pod, s ...*health.Snapshot) model.Target {
		return model.Target{Facts: model.Facts{Target: target.Target{Kind: kind}, Pod: pod}, Snapshots: s}
	}
	for _, tc := range []struct {
		name        string
		targets     []model.Target
		read, calls bool
	}{
		{"no API server", []model.Target{of(target.KindPod, nil, &health.Snapshot{})}, false, false},
		{"API server not read", []model.Target{of(target.KindAPIServer, nil)}, false, false},
		{"API server, no calls", []model.Target{of(target.KindAPIServer, nil, &health.Snapshot{})}, true, false},
		{"API server with calls", []model.Target{of(target.KindPod, nil, &health.Snapshot{}), of(target.KindAPIServer, nil, calls)}, true, true},
		{"API server pod with calls", []model.Target{of(target.KindPod, apiserverPod, calls)}, true, true},
		{"calls on no API server", []model.Target{of(target.KindPod, nil, calls)}, false, false},
	} {
		read, c := apiServerPage(tc.targets)
		if read != tc.read || c != tc.calls {
			t.Errorf("%s: read %v, calls %v; want %v, %v", tc.name, read, c, tc.read, tc.calls)
		}
	}
}
