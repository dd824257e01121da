package collect

import (
	"context"
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/access"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// watchEnvs resolves the WATCH_NAMESPACE(S) of the containers of the pods that take them from
// elsewhere, by pod ("namespace/name") and container: the pod's namespace for a fieldRef, the
// key of a ConfigMap of the pod's namespace (get configmaps there, checked first with a
// SelfSubjectAccessReview, once per namespace); a Secret is never read. Only the keys that
// name the variables are looked at; nothing else of a ConfigMap is kept. nil when no pod's
// container takes them from elsewhere.
func watchEnvs(ctx context.Context, client kubernetes.Interface, pods map[string]*corev1.Pod) map[string]map[string]*knobs.WatchEnv {
	r := configMapReader{client: client, allowed: map[string]error{}, got: map[string]keyAnswer{}}
	keys := make([]string, 0, len(pods))
	for k := range pods {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out map[string]map[string]*knobs.WatchEnv
	for _, k := range keys {
		p := pods[k]
		if p == nil {
			continue
		}
		for _, c := range p.Spec.Containers {
			w := knobs.ResolveWatchEnv(ctx, c, p.Namespace, r.key)
			if w == nil {
				continue
			}
			if out == nil {
				out = map[string]map[string]*knobs.WatchEnv{}
			}
			if out[k] == nil {
				out[k] = map[string]*knobs.WatchEnv{}
			}
			out[k][c.Name] = w
		}
	}
	return out
}

// targetPods are the pods behind the pod targets, by "namespace/name".
func targetPods(pods map[string]*corev1.Pod, targets []target.Target) map[string]*corev1.Pod {
	out := map[string]*corev1.Pod{}
	for _, t := range targets {
		k := t.Namespace + "/" + t.Name
		if p := pods[k]; t.Kind == target.KindPod && p != nil {
			out[k] = p
		}
	}
	return out
}

// configMapReader reads single keys of ConfigMaps, each answer once.
type configMapReader struct {
	client  kubernetes.Interface
	allowed map[string]error // by namespace: nil when get configmaps is allowed there
	got     map[string]keyAnswer
}

type keyAnswer struct {
	value string
	found bool
	err   error
}

// key is a knobs.ConfigMapKey.
func (r *configMapReader) key(ctx context.Context, ns, name, key string) (string, bool, error) {
	id := ns + "/" + name + "/" + key
	if a, ok := r.got[id]; ok {
		return a.value, a.found, a.err
	}
	a := r.read(ctx, ns, name, key)
	r.got[id] = a
	return a.value, a.found, a.err
}

func (r *configMapReader) read(ctx context.Context, ns, name, key string) keyAnswer {
	perm := access.Permission{Verb: "get", Resource: "configmaps", Namespace: ns}
	err, checked := r.allowed[ns]
	if !checked {
		missing, merr := access.Missing(ctx, r.client, []access.Permission{perm})
		switch {
		case merr != nil:
			err = fmt.Errorf("whether you may get configmaps in namespace %s could not be checked: %v", ns, merr)
		case len(missing) > 0:
			err = fmt.Errorf("needs RBAC verb get on configmaps in namespace %s", ns)
		}
		r.allowed[ns] = err
	}
	if err != nil {
		return keyAnswer{err: err}
	}
	cm, err := r.client.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		return keyAnswer{err: knobs.ErrNoConfigMap}
	case apierrors.IsForbidden(err):
		return keyAnswer{err: fmt.Errorf("needs RBAC verb get on configmaps in namespace %s", ns)}
	case err != nil:
		return keyAnswer{err: fmt.Errorf("get configmaps in namespace %s: %v", ns, err)}
	}
	v, found := cm.Data[key]
	return keyAnswer{value: v, found: found}
}
