package knobs

import "testing"

// The workers of a queue come from its knob's flag in the container's arguments, else from the
// flag's default; not without the arguments, nor for a queue without a workers knob.
func TestWorkers(t *testing.T) {
	kcm, _ := Recognise(Seen{Args: []string{"kube-controller-manager", "--concurrent-deployment-syncs", "10", "--concurrent_rc_syncs=7", "--leader-elect"}})
	for _, tc := range []struct {
		queue string
		n     float64
		from  string
	}{
		{"deployment", 10, "--concurrent-deployment-syncs in the container's arguments"},
		{"replicationmanager", 7, "--concurrent_rc_syncs in the container's arguments"},
		{"replicaset", 5, "the default of --concurrent-replicaset-syncs"},
		{"daemonset", 2, "the default of --concurrent-daemonset-syncs"},
		{"garbage_collector_graph_changes", 0, ""},
	} {
		n, from, ok := kcm.Workers(tc.queue)
		if ok != (tc.n > 0) || n != tc.n || from != tc.from {
			t.Errorf("%s: %v %q %v, want %v %q", tc.queue, n, from, ok, tc.n, tc.from)
		}
	}
	argo, _ := Recognise(Seen{Args: []string{"/usr/local/bin/argocd-application-controller", "--status-processors", "50"}})
	if n, _, ok := argo.Workers("app_operation_processing_queue"); !ok || n != 10 {
		t.Errorf("argo operation processors: %v %v", n, ok)
	}
	if n, _, ok := argo.Workers("app_reconciliation_queue"); !ok || n != 50 {
		t.Errorf("argo status processors: %v %v", n, ok)
	}
	byQueue, _ := Recognise(Seen{Queues: []string{"replicationmanager"}})
	if _, _, ok := byQueue.Workers("replicaset"); ok {
		t.Error("without the container's arguments the workers are unknown")
	}
	bad, _ := Recognise(Seen{Args: []string{"kube-controller-manager", "--concurrent-replicaset-syncs=lots"}})
	if _, _, ok := bad.Workers("replicaset"); ok {
		t.Error("a value that is no number gives no workers")
	}
}

// A controller that reconciles every namespace does unless a flag restricts it.
func TestAllNamespaces(t *testing.T) {
	for _, tc := range []struct {
		seen Seen
		want bool
	}{
		{Seen{Args: []string{"kube-controller-manager", "--controllers=*"}}, true},
		{Seen{Queues: []string{"replicationmanager"}}, true},
		{Seen{Image: "ghcr.io/fluxcd/source-controller:v1.9.1", Args: []string{"source-controller", "--watch-all-namespaces=true"}}, true},
		{Seen{Image: "ghcr.io/fluxcd/source-controller:v1.9.1", Args: []string{"source-controller", "--watch-all-namespaces=false"}}, false},
		{Seen{Image: "registry.k8s.io/cluster-api/cluster-api-controller:v1.9.0", Args: []string{"/manager", "--namespace=capi"}}, false},
		{Seen{Image: "registry.k8s.io/cluster-api/cluster-api-controller:v1.9.0", Args: []string{"/manager"}}, true},
		{Seen{Args: []string{"argocd-application-controller"}}, false},
	} {
		m, _ := Recognise(tc.seen)
		if got := m.AllNamespaces(); got != tc.want {
			t.Errorf("%+v: %v, want %v", tc.seen, got, tc.want)
		}
	}
	if (Match{}).AllNamespaces() {
		t.Error("an unrecognised controller is not taken as cluster-wide")
	}
}

// Argo CD's install sets its processors in the environment, from a ConfigMap: a value the
// container gives counts; one from elsewhere leaves the workers unknown, never the default.
func TestWorkersFromTheEnvironment(t *testing.T) {
	args := []string{"argocd-application-controller"}
	for _, tc := range []struct {
		env  map[string]string
		n    float64
		from string
	}{
		{nil, 20, "the default of --status-processors"},
		{map[string]string{"ARGOCD_APPLICATION_CONTROLLER_STATUS_PROCESSORS": "50"}, 50, "ARGOCD_APPLICATION_CONTROLLER_STATUS_PROCESSORS in the container's environment"},
		{map[string]string{"ARGOCD_APPLICATION_CONTROLLER_STATUS_PROCESSORS": Unknown}, 0, ""},
		{map[string]string{Others: Unknown}, 0, ""},
	} {
		m, _ := Recognise(Seen{Args: args, Env: tc.env})
		n, from, ok := m.Workers("app_reconciliation_queue")
		if ok != (tc.n > 0) || n != tc.n || from != tc.from {
			t.Errorf("env %v: %v %q %v, want %v %q", tc.env, n, from, ok, tc.n, tc.from)
		}
	}
	m, _ := Recognise(Seen{Args: append(args, "--status-processors=30"), Env: map[string]string{"ARGOCD_APPLICATION_CONTROLLER_STATUS_PROCESSORS": Unknown}})
	if n, _, ok := m.Workers("app_reconciliation_queue"); !ok || n != 30 {
		t.Errorf("the flag wins over the environment: %v %v", n, ok)
	}
}
