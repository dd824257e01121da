package discover

import (
	"context"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

type podOpt func(*corev1.Pod)

func pod(ns, name string, opts ...podOpt) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{}, Annotations: map[string]string{}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "manager"}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, PodIP: "198.18.1.2",
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}},
	}
	for _, o := range opts {
		o(p)
	}
	return p
}

func port(name string, n int32) podOpt {
	return func(p *corev1.Pod) {
		p.Spec.Containers[0].Ports = append(p.Spec.Containers[0].Ports, corev1.ContainerPort{Name: name, ContainerPort: n})
	}
}
func label(k, v string) podOpt { return func(p *corev1.Pod) { p.Labels[k] = v } }
func image(img string, args ...string) podOpt {
	return func(p *corev1.Pod) { p.Spec.Containers[0].Image, p.Spec.Containers[0].Args = img, args }
}
func annotation(k, v string) podOpt { return func(p *corev1.Pod) { p.Annotations[k] = v } }
func notReady(p *corev1.Pod)        { p.Status.Conditions[0].Status = corev1.ConditionFalse }
func ownedBy(kind, name string) podOpt {
	return func(p *corev1.Pod) {
		yes := true
		p.OwnerReferences = append(p.OwnerReferences, metav1.OwnerReference{Kind: kind, Name: name, Controller: &yes})
	}
}

func ids(r Result) string {
	var s []string
	for _, t := range r.Targets {
		s = append(s, t.ID()+" "+t.Scheme+t.Path)
	}
	return strings.Join(s, ", ")
}

func TestScanHeuristics(t *testing.T) {
	objs := []runtime.Object{
		pod("ops", "annotated", annotation(annoScrape, "true"), annotation(annoPort, "9090"), annotation(annoPath, "/m"), port("web", 80)),
		pod("ops", "named", port("metrics", 8080), port("webhook", 9443)),
		pod("ops", "secure", port("https", 8443)),
		pod("ops", "source-controller-5f4-x", port("http-prom", 8080), port("healthz", 9440), port("http", 9090)),
		pod("ops", "plain", port("http", 80)),
		// external-dns: its chart names its port "http", its own manifests declare none.
		pod("ops", "external-dns-6c5-x", image("registry.k8s.io/external-dns/external-dns:v0.22.0", "--source=service"), port("http", 7979)),
		pod("ops", "external-dns-moved", image("registry.k8s.io/external-dns/external-dns@sha256:00", "--metrics-address", "127.0.0.1:9099")),
		pod("ops", "unready", port("metrics", 8080), notReady),
		pod("kube-system", "kube-controller-manager-n1", label("component", "kube-controller-manager"), annotation("kubernetes.io/config.source", "file")),
		pod("ops", "mgr-7d9-x", label("control-plane", "controller-manager"), label("pod-template-hash", "7d9"),
			ownedBy("ReplicaSet", "mgr-7d9"), port("", 8443)),
		&corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "mgr-metrics-service", Labels: map[string]string{"control-plane": "controller-manager"}},
			Spec: corev1.ServiceSpec{Selector: map[string]string{"control-plane": "controller-manager"},
				Ports: []corev1.ServicePort{{Name: "https", Port: 8443, TargetPort: intstr.FromInt32(8443)}}}},
	}
	client := fake.NewClientset(objs...)
	res, err := Discover(context.Background(), client, Options{Namespace: "ops"})
	if err != nil {
		t.Fatal(err)
	}
	want := "ops/annotated:9090 http/m, ops/external-dns-6c5-x:7979 http/metrics, ops/external-dns-moved:9099 http/metrics, ops/mgr-7d9-x:8443 https/metrics, " +
		"ops/named:8080 http/metrics, ops/secure:8443 https/metrics, ops/source-controller-5f4-x:8080 http/metrics"
	if got := ids(res); got != want {
		t.Errorf("targets:\n got %s\nwant %s", got, want)
	}
	if len(res.Skipped) != 1 || res.Skipped[0].Pod != "unready" || res.Skipped[0].Reason != "not ready" {
		t.Errorf("skipped = %+v", res.Skipped)
	}
	for _, tg := range res.Targets {
		if tg.Name == "mgr-7d9-x" && (tg.Workload != "deployment/mgr" || !strings.Contains(tg.Reason, "kubebuilder metrics Service mgr-metrics-service")) {
			t.Errorf("kubebuilder target = %+v", tg)
		}
	}

	res, err = Discover(context.Background(), client, Options{Namespace: "kube-system", IncludeAPIServer: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ids(res), "apiserver https/metrics, kube-system/kube-controller-manager-n1:10257 https/metrics"; got != want {
		t.Errorf("kube-system:\n got %s\nwant %s", got, want)
	}
	if res.Targets[1].Workload != "static/kube-controller-manager" {
		t.Errorf("a kubeadm static pod's workload = %q", res.Targets[1].Workload)
	}
}

// One paged list per kind, with the selector sent to the server, whatever the number of pods.
func TestScanListsOncePerKindWithSelector(t *testing.T) {
	var objs []runtime.Object
	for i := 0; i < 50; i++ {
		objs = append(objs, pod("ops", "p"+strings.Repeat("x", i), port("metrics", 8080), label("app", "a")))
	}
	client := fake.NewClientset(objs...)
	var calls []string
	client.PrependReactor("*", "*", func(a k8stesting.Action) (bool, runtime.Object, error) {
		s := a.GetVerb() + " " + a.GetResource().Resource
		if l, ok := a.(k8stesting.ListAction); ok {
			s += " " + l.GetListRestrictions().Labels.String()
		}
		calls = append(calls, s)
		return false, nil, nil
	})
	res, err := Discover(context.Background(), client, Options{Namespace: "ops", Selector: "app=a"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Targets) != 50 {
		t.Errorf("got %d targets, want 50", len(res.Targets))
	}
	if got := strings.Join(calls, "; "); got != "list pods app=a; list services control-plane=controller-manager" {
		t.Errorf("API calls: %s", got)
	}
}

func TestExplicitTargets(t *testing.T) {
	replicas := []runtime.Object{
		pod("ops", "op-1", label("app", "op"), port("metrics", 8080)),
		pod("ops", "op-2", label("app", "op"), port("metrics", 8080)),
		pod("ops", "op-3", label("app", "op"), port("metrics", 8080), notReady),
		pod("ops", "bare"),
		&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "op"},
			Spec: appsv1.DeploymentSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "op"}}}},
		&corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "op"},
			Spec: corev1.ServiceSpec{Selector: map[string]string{"app": "op"},
				Ports: []corev1.ServicePort{{Name: "web", Port: 80}, {Name: "metrics", Port: 8080, TargetPort: intstr.FromString("metrics")}}}},
	}
	client := fake.NewClientset(replicas...)
	for _, tc := range []struct {
		args    []string
		port    int32
		want    string
		wantErr string
	}{
		{args: []string{"pod/op-1"}, want: "ops/op-1:8080 http/metrics"},
		{args: []string{"op-2"}, want: "ops/op-2:8080 http/metrics"},
		{args: []string{"deploy/op"}, want: "ops/op-1:8080 http/metrics, ops/op-2:8080 http/metrics"},
		{args: []string{"svc/op"}, want: "ops/op-1:8080 http/metrics, ops/op-2:8080 http/metrics"},
		{args: []string{"bare"}, wantErr: "declares no metrics port"},
		{args: []string{"bare"}, port: 9000, want: "ops/bare:9000 http/metrics"},
		{args: []string{"pod/nope"}, wantErr: `pod "nope" not found in namespace "ops"`},
		{args: []string{"op-3"}, wantErr: "op-3: not ready"},
		{args: []string{"cm/x"}, wantErr: "use pod/NAME, svc/NAME, deploy/NAME"},
	} {
		res, err := Discover(context.Background(), client, Options{Namespace: "ops", Explicit: tc.args, Port: tc.port})
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%v: err = %v, want %q", tc.args, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", tc.args, err)
			continue
		}
		if got := ids(res); got != tc.want {
			t.Errorf("%v:\n got %s\nwant %s", tc.args, got, tc.want)
		}
	}
	if _, err := Discover(context.Background(), client, Options{Explicit: []string{"op-1"}}); err == nil || !strings.Contains(err.Error(), "use -n NAMESPACE instead of -A") {
		t.Errorf("explicit target with -A: %v", err)
	}
}

func TestWorkloadOf(t *testing.T) {
	for _, tc := range []struct {
		pod  *corev1.Pod
		want string
	}{
		{pod("ops", "op-7d9-a", ownedBy("ReplicaSet", "op-7d9"), label("pod-template-hash", "7d9"), label("app", "x")), "deployment/op"},
		{pod("ops", "db-0", ownedBy("StatefulSet", "db")), "statefulset/db"},
		{pod("kube-system", "kcm-n1", ownedBy("Node", "n1"), label("component", "kube-controller-manager")), "static/kube-controller-manager"},
		{pod("ops", "a", label("app.kubernetes.io/name", "op"), label("app", "other")), "app.kubernetes.io/name=op"},
		{pod("ops", "b", label("app", "op")), "app=op"},
		{pod("ops", "c", label("control-plane", "controller-manager")), "control-plane=controller-manager"},
		{pod("ops", "d", label("tier", "x")), ""},
	} {
		if got := workloadOf(tc.pod); got != tc.want {
			t.Errorf("%s: workload %q, want %q", tc.pod.Name, got, tc.want)
		}
	}
}
