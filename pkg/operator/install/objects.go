package install

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// Options describe one installation of the reference operator.
type Options struct {
	Namespace     string // where the operator runs and works
	Name          string // prefix of every object's name
	Image         string // container image holding kubectl-ctrldiag-operator
	Scenario      string // --scenario of the operator ("" = none)
	Workers       int    // --workers
	MetricsSecure bool   // HTTPS :8443 with TokenReview/SubjectAccessReview, else HTTP :8080
	MemoryLimit   resource.Quantity
}

// Ports the installed operator listens on.
const (
	SecureMetricsPort = 8443
	PlainMetricsPort  = 8080
	HealthPort        = 8081
	PprofPort         = 8082
)

// Objects returns every object of the installation in apply order.
func Objects(o Options) ([]*unstructured.Unstructured, error) {
	typed := []runtime.Object{namespace(o), serviceAccount(o)}
	typed = append(typed, rbac(o)...)
	typed = append(typed, deployment(o), service(o))
	out := []*unstructured.Unstructured{CRD()}
	for _, obj := range typed {
		m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
		if err != nil {
			return nil, fmt.Errorf("render %T: %w", obj, err)
		}
		u := &unstructured.Unstructured{Object: m}
		unstructured.RemoveNestedField(u.Object, "metadata", "creationTimestamp")
		unstructured.RemoveNestedField(u.Object, "spec", "template", "metadata", "creationTimestamp")
		unstructured.RemoveNestedField(u.Object, "status")
		out = append(out, u)
	}
	return out, nil
}

func commonLabels(o Options) map[string]string {
	return map[string]string{
		"app.kubernetes.io/name":       o.Name,
		"app.kubernetes.io/part-of":    "kubectl-ctrldiag",
		"app.kubernetes.io/managed-by": "kubectl-ctrldiag",
	}
}

func selectorLabels(o Options) map[string]string {
	return map[string]string{"control-plane": "controller-manager", "app.kubernetes.io/name": o.Name}
}

func objectMeta(o Options, name string, namespaced bool) metav1.ObjectMeta {
	m := metav1.ObjectMeta{Name: name, Labels: commonLabels(o)}
	if namespaced {
		m.Namespace = o.Namespace
	}
	return m
}

func namespace(o Options) *corev1.Namespace {
	return &corev1.Namespace{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"},
		ObjectMeta: objectMeta(o, o.Namespace, false)}
}

func serviceAccount(o Options) *corev1.ServiceAccount {
	return &corev1.ServiceAccount{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ServiceAccount"},
		ObjectMeta: objectMeta(o, o.Name, true)}
}

func runArgs(o Options) []string {
	args := []string{"run", "--namespace=" + o.Namespace, "--leader-elect",
		fmt.Sprintf("--health-probe-bind-address=:%d", HealthPort), fmt.Sprintf("--pprof-bind-address=:%d", PprofPort)}
	if o.MetricsSecure {
		args = append(args, fmt.Sprintf("--metrics-bind-address=:%d", SecureMetricsPort), "--metrics-secure")
	} else {
		args = append(args, fmt.Sprintf("--metrics-bind-address=:%d", PlainMetricsPort))
	}
	if o.Workers > 0 {
		args = append(args, fmt.Sprintf("--workers=%d", o.Workers))
	}
	if o.Scenario != "" {
		args = append(args, "--scenario="+o.Scenario)
	}
	return args
}

func metricsPort(o Options) (string, int32) {
	if o.MetricsSecure {
		return "https", SecureMetricsPort
	}
	return "http-metrics", PlainMetricsPort
}

func deployment(o Options) *appsv1.Deployment {
	portName, port := metricsPort(o)
	podLabels := commonLabels(o)
	for k, v := range selectorLabels(o) {
		podLabels[k] = v
	}
	probe := func(path string) *corev1.Probe {
		return &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{
			Path: path, Port: intstr.FromInt32(HealthPort)}}, PeriodSeconds: 10}
	}
	d := &appsv1.Deployment{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: objectMeta(o, o.Name+"-controller-manager", true),
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](1),
			Selector: &metav1.LabelSelector{MatchLabels: selectorLabels(o)},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: podLabels,
					Annotations: map[string]string{"kubectl.kubernetes.io/default-container": "manager"}},
				Spec: corev1.PodSpec{
					ServiceAccountName:            o.Name,
					TerminationGracePeriodSeconds: ptr.To[int64](10),
					SecurityContext: &corev1.PodSecurityContext{RunAsNonRoot: ptr.To(true),
						SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault}},
					Containers: []corev1.Container{{
						Name:    "manager",
						Image:   o.Image,
						Command: []string{"kubectl-ctrldiag-operator"},
						Args:    runArgs(o),
						Ports: []corev1.ContainerPort{
							{Name: portName, ContainerPort: port, Protocol: corev1.ProtocolTCP},
							{Name: "health", ContainerPort: HealthPort, Protocol: corev1.ProtocolTCP},
							{Name: "pprof", ContainerPort: PprofPort, Protocol: corev1.ProtocolTCP},
						},
						LivenessProbe:  probe("/healthz"),
						ReadinessProbe: probe("/readyz"),
						Resources: corev1.ResourceRequirements{
							Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("10m"),
								corev1.ResourceMemory: resource.MustParse("64Mi")},
							Limits: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m"),
								corev1.ResourceMemory: o.MemoryLimit},
						},
						SecurityContext: &corev1.SecurityContext{
							AllowPrivilegeEscalation: ptr.To(false),
							ReadOnlyRootFilesystem:   ptr.To(true),
							RunAsUser:                ptr.To[int64](65532),
							Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
						},
					}},
				},
			},
		},
	}
	return d
}

func service(o Options) *corev1.Service {
	portName, port := metricsPort(o)
	m := objectMeta(o, o.Name+"-metrics-service", true)
	m.Labels["control-plane"] = "controller-manager"
	return &corev1.Service{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: m,
		Spec: corev1.ServiceSpec{
			Selector: selectorLabels(o),
			Ports: []corev1.ServicePort{{Name: portName, Port: port, Protocol: corev1.ProtocolTCP,
				TargetPort: intstr.FromString(portName)}},
		},
	}
}
