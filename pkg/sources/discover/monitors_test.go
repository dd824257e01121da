package discover

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	fakediscovery "k8s.io/client-go/discovery/fake"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

func monitorObject(kind, ns, name string, spec map[string]any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "monitoring.coreos.com/v1", "kind": kind,
		"metadata": map[string]any{"namespace": ns, "name": name},
		"spec":     spec,
	}}
}

func selector(k, v string) map[string]any { return map[string]any{"matchLabels": map[string]any{k: v}} }

// monitorClients returns the fake clients; served says whether monitoring.coreos.com/v1 exists.
func monitorClients(served bool, objs []runtime.Object, monitors ...runtime.Object) (*fake.Clientset, *dynamicfake.FakeDynamicClient) {
	client := fake.NewClientset(objs...)
	if served {
		client.Discovery().(*fakediscovery.FakeDiscovery).Resources = []*metav1.APIResourceList{{
			GroupVersion: "monitoring.coreos.com/v1",
			APIResources: []metav1.APIResource{{Name: "servicemonitors", Namespaced: true}, {Name: "podmonitors", Namespaced: true}},
		}}
	}
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{serviceMonitors: "ServiceMonitorList", podMonitors: "PodMonitorList"}, monitors...)
	return client, dyn
}

func TestMonitors(t *testing.T) {
	objs := []runtime.Object{
		pod("ops", "web-1", label("app", "web"), port("https", 9443)),
		pod("ops", "pm-1", label("app", "pm"), port("prom", 9100)),
		pod("ops", "pm-2", label("app", "pm")),
		&corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "web", Labels: map[string]string{"team": "web"}},
			Spec: corev1.ServiceSpec{Selector: map[string]string{"app": "web"},
				Ports: []corev1.ServicePort{{Name: "metrics-https", Port: 8443, TargetPort: intstr.FromString("https")}}}},
	}
	monitors := []runtime.Object{
		monitorObject("ServiceMonitor", "ops", "web", map[string]any{"selector": selector("team", "web"),
			"endpoints": []any{map[string]any{"port": "metrics-https", "scheme": "https", "path": "/custom"}}}),
		monitorObject("ServiceMonitor", "ops", "elsewhere", map[string]any{"selector": selector("team", "web"),
			"namespaceSelector": map[string]any{"matchNames": []any{"other"}},
			"endpoints":         []any{map[string]any{"targetPort": int64(9443)}}}),
		monitorObject("PodMonitor", "ops", "pm", map[string]any{"selector": selector("app", "pm"),
			"podMetricsEndpoints": []any{map[string]any{"port": "prom", "path": "/m"}}}),
	}
	client, dyn := monitorClients(true, objs, monitors...)
	var calls []string
	record := func(a k8stesting.Action) (bool, runtime.Object, error) {
		calls = append(calls, a.GetVerb()+" "+a.GetResource().Resource)
		return false, nil, nil
	}
	client.PrependReactor("list", "*", record)
	dyn.PrependReactor("list", "*", record)

	res, err := Discover(context.Background(), client, Options{Namespace: "ops", Dynamic: dyn})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ids(res), "ops/pm-1:9100 http/m, ops/web-1:9443 https/custom"; got != want {
		t.Errorf("targets:\n got %s\nwant %s", got, want)
	}
	reasons := map[string]string{}
	for _, tg := range res.Targets {
		reasons[tg.Name] = tg.Reason
	}
	if reasons["web-1"] != "ServiceMonitor ops/web, endpoint port metrics-https of Service web" ||
		reasons["pm-1"] != `PodMonitor ops/pm, endpoint named "prom"` {
		t.Errorf("reasons: %v", reasons)
	}
	if len(res.Skipped) != 1 || res.Skipped[0].Pod != "pm-2" || !strings.Contains(res.Skipped[0].Reason, `PodMonitor ops/pm: the pod has no container port named "prom"`) {
		t.Errorf("skipped: %+v", res.Skipped)
	}
	if got, want := strings.Join(calls, "; "), "list pods; list servicemonitors; list podmonitors; list services"; got != want {
		t.Errorf("API calls:\n got %s\nwant %s", got, want)
	}
}

// Without the API nothing is listed with the dynamic client; a forbidden list is a warning.
func TestMonitorsAbsentOrForbidden(t *testing.T) {
	objs := []runtime.Object{pod("ops", "pm-1", label("app", "pm"), port("prom", 9100))}
	pm := monitorObject("PodMonitor", "ops", "pm", map[string]any{"selector": selector("app", "pm"),
		"podMetricsEndpoints": []any{map[string]any{"port": "prom"}}})

	client, dyn := monitorClients(false, objs, pm)
	res, err := Discover(context.Background(), client, Options{Namespace: "ops", Dynamic: dyn})
	if err != nil || len(res.Targets) != 0 || len(res.Warnings) != 0 || len(dyn.Actions()) != 0 {
		t.Errorf("without the API: %v %+v, dynamic calls %v", err, res, dyn.Actions())
	}

	client, dyn = monitorClients(true, objs, pm)
	dyn.PrependReactor("list", "podmonitors", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(podMonitors.GroupResource(), "", nil)
	})
	res, err = Discover(context.Background(), client, Options{Namespace: "ops", Dynamic: dyn})
	if err != nil || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "list podmonitors in namespace \"ops\"") ||
		!strings.Contains(res.Warnings[0], "PodMonitors are not looked at") {
		t.Errorf("forbidden: %v %+v", err, res.Warnings)
	}
}

// With one namespace, monitors kept in another (kube-prometheus's "monitoring") count when
// their namespaceSelector names it and the user may list monitors everywhere; when that is
// forbidden, the namespace's own monitors are read, without a warning.
func TestMonitorsInOtherNamespaces(t *testing.T) {
	objs := []runtime.Object{
		pod("ops", "web-1", label("app", "web"), port("metrics", 8080)),
		pod("ops", "pm-1", label("app", "pm"), port("prom", 9100)),
		&corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "web", Labels: map[string]string{"team": "web"}},
			Spec: corev1.ServiceSpec{Selector: map[string]string{"app": "web"},
				Ports: []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromInt32(8080)}}}},
	}
	monitors := []runtime.Object{
		monitorObject("ServiceMonitor", "monitoring", "web", map[string]any{"selector": selector("team", "web"),
			"namespaceSelector": map[string]any{"matchNames": []any{"ops"}},
			"endpoints":         []any{map[string]any{"port": "http", "path": "/from-monitoring"}}}),
		monitorObject("PodMonitor", "monitoring", "everywhere", map[string]any{"selector": selector("app", "pm"),
			"namespaceSelector":   map[string]any{"any": true},
			"podMetricsEndpoints": []any{map[string]any{"port": "prom"}}}),
		// Selects only its own namespace: not ops.
		monitorObject("ServiceMonitor", "monitoring", "own", map[string]any{"selector": selector("team", "web"),
			"endpoints": []any{map[string]any{"port": "http", "path": "/own"}}}),
	}
	client, dyn := monitorClients(true, objs, monitors...)
	res, err := Discover(context.Background(), client, Options{Namespace: "ops", Dynamic: dyn})
	if err != nil || len(res.Warnings) != 0 {
		t.Fatalf("%v %v", err, res.Warnings)
	}
	if got, want := ids(res), "ops/pm-1:9100 http/metrics, ops/web-1:8080 http/from-monitoring"; got != want {
		t.Errorf("targets:\n got %s\nwant %s", got, want)
	}
	for _, tg := range res.Targets {
		if !strings.HasPrefix(tg.Reason, "ServiceMonitor monitoring/web,") && !strings.HasPrefix(tg.Reason, "PodMonitor monitoring/everywhere,") {
			t.Errorf("%s found by %q", tg.Name, tg.Reason)
		}
	}

	// Listing in all namespaces forbidden: the namespace's own monitors (none here), no warning;
	// the heuristics still find web-1 by its port name.
	client, dyn = monitorClients(true, objs, monitors...)
	var namespaces []string
	dyn.PrependReactor("list", "*", func(a k8stesting.Action) (bool, runtime.Object, error) {
		namespaces = append(namespaces, a.GetNamespace())
		if a.GetNamespace() == "" {
			return true, nil, apierrors.NewForbidden(a.GetResource().GroupResource(), "", nil)
		}
		return false, nil, nil
	})
	res, err = Discover(context.Background(), client, Options{Namespace: "ops", Dynamic: dyn})
	if err != nil || len(res.Warnings) != 0 {
		t.Fatalf("%v %v", err, res.Warnings)
	}
	if got, want := ids(res), "ops/web-1:8080 http/metrics"; got != want {
		t.Errorf("targets:\n got %s\nwant %s", got, want)
	}
	if got, want := strings.Join(namespaces, ","), ",ops,,ops"; got != want {
		t.Errorf("monitor lists in namespaces %q, want %q", got, want)
	}
}
