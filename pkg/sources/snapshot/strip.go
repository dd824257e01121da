package snapshot

import (
	"regexp"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
)

// secretFlag matches the name of a command-line flag whose value is a credential.
var secretFlag = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^--?[a-z0-9-]*(token|password|passwd|secret|credential|api-?key|private-?key)[a-z0-9-]*$`)
})

// Strip returns a copy of the pod with what the report reads (status, restarts and last
// terminations, resources, images, arguments, owners, labels) and without what may hold a
// credential: environment values (names kept, and that a value comes from elsewhere; the
// values of the variables pkg/facts/knobs reads as settings, numbers, are kept; envFrom keeps the
// names of its ConfigMaps and Secrets), the values of secret-named flags in command and args, probe and lifecycle HTTP
// headers, annotations other than prometheus.io/* and ctrldiag.io/ignore (the checks accepted
// for the workload, so that the report read from the snapshot suppresses the same), managed fields, and volume sources other
// than the names of Secrets, ConfigMaps and claims.
func Strip(p *corev1.Pod) *corev1.Pod {
	if p == nil {
		return nil
	}
	p = p.DeepCopy()
	p.ManagedFields = nil
	for k := range p.Annotations {
		if !strings.HasPrefix(k, "prometheus.io/") && k != "ctrldiag.io/ignore" {
			delete(p.Annotations, k)
		}
	}
	for _, cs := range [][]corev1.Container{p.Spec.InitContainers, p.Spec.Containers} {
		for i := range cs {
			stripContainer(&cs[i])
		}
	}
	for i := range p.Spec.EphemeralContainers {
		c := corev1.Container(p.Spec.EphemeralContainers[i].EphemeralContainerCommon)
		stripContainer(&c)
		p.Spec.EphemeralContainers[i].EphemeralContainerCommon = corev1.EphemeralContainerCommon(c)
	}
	for i, v := range p.Spec.Volumes {
		kept := corev1.Volume{Name: v.Name}
		switch {
		case v.Secret != nil:
			kept.Secret = &corev1.SecretVolumeSource{SecretName: v.Secret.SecretName}
		case v.ConfigMap != nil:
			kept.ConfigMap = &corev1.ConfigMapVolumeSource{LocalObjectReference: v.ConfigMap.LocalObjectReference}
		case v.PersistentVolumeClaim != nil:
			kept.PersistentVolumeClaim = &corev1.PersistentVolumeClaimVolumeSource{ClaimName: v.PersistentVolumeClaim.ClaimName}
		case v.EmptyDir != nil:
			kept.EmptyDir = &corev1.EmptyDirVolumeSource{}
		}
		p.Spec.Volumes[i] = kept
	}
	return p
}

func stripContainer(c *corev1.Container) {
	for i, e := range c.Env {
		kept := corev1.EnvVar{Name: e.Name}
		switch {
		case e.ValueFrom != nil:
			// That it comes from elsewhere, not from where.
			kept.ValueFrom = &corev1.EnvVarSource{}
		case knobs.Env(e.Name):
			// A setting the knobs read (Argo CD's processors): a number, kept.
			kept.Value = e.Value
		}
		c.Env[i] = kept
	}
	for i := range c.EnvFrom {
		e := &c.EnvFrom[i]
		if e.ConfigMapRef != nil {
			e.ConfigMapRef = &corev1.ConfigMapEnvSource{LocalObjectReference: e.ConfigMapRef.LocalObjectReference}
		}
		if e.SecretRef != nil {
			e.SecretRef = &corev1.SecretEnvSource{LocalObjectReference: e.SecretRef.LocalObjectReference}
		}
	}
	c.Command = stripArgs(c.Command)
	c.Args = stripArgs(c.Args)
	for _, pr := range []*corev1.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		if pr != nil && pr.HTTPGet != nil {
			pr.HTTPGet.HTTPHeaders = nil
		}
	}
	if c.Lifecycle != nil {
		for _, h := range []*corev1.LifecycleHandler{c.Lifecycle.PostStart, c.Lifecycle.PreStop} {
			if h != nil && h.HTTPGet != nil {
				h.HTTPGet.HTTPHeaders = nil
			}
		}
	}
}

// stripArgs masks the values of secret-named flags ("--token=X", "--token X") and the
// credentials the run registered. A boolean value is kept: it holds no credential, and a
// switch such as kube-controller-manager's --use-service-account-credentials=true decides
// whom the API server sees the controllers' requests from, which the report read from the
// snapshot judges too.
func stripArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		name, value, hasValue := strings.Cut(a, "=")
		switch {
		case hasValue && secretFlag().MatchString(name) && !boolean(value):
			a = name + "=" + redact.Mask
		case i > 0 && secretFlag().MatchString(args[i-1]) && !strings.HasPrefix(a, "-") && !boolean(a):
			a = redact.Mask
		}
		out[i] = redact.String(a)
	}
	if args == nil {
		return nil
	}
	return out
}

// boolean says whether a flag's value is true or false.
func boolean(v string) bool {
	return strings.EqualFold(v, "true") || strings.EqualFold(v, "false")
}
