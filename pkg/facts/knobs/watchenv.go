package knobs

import (
	"context"
	"errors"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// WatchEnv is what a container's WATCH_NAMESPACE and WATCH_NAMESPACES resolve to where the
// container does not give them itself: from the pod's own namespace (a fieldRef of
// metadata.namespace) or from a ConfigMap (a configMapKeyRef, an envFrom configMapRef). It
// keeps only these values, nothing else of a ConfigMap, and never reads a Secret.
type WatchEnv struct {
	// Values are the variables resolved, by name; "" is a variable set empty or not set at
	// all (every namespace).
	Values map[string]string `json:"values,omitempty"`
	// Unresolved are the variables whose value could not be had (a Secret, a ConfigMap that
	// may not be read, another field): they are taken to restrict the controller.
	Unresolved []string `json:"unresolved,omitempty"`
	// Notes say why a variable was not resolved.
	Notes []string `json:"notes,omitempty"`
}

// ConfigMapKey reads one key of a ConfigMap in a namespace: its value and whether the
// ConfigMap holds it. An error says why it could not be read (not allowed, with the RBAC
// that would read it); ErrNoConfigMap that it is not there.
type ConfigMapKey func(ctx context.Context, namespace, name, key string) (value string, found bool, err error)

// ResolveWatchEnv resolves c's WATCH_NAMESPACE and WATCH_NAMESPACES, as the kubelet set them
// when it started the container in namespace podNS: envFrom sources in order, each later one
// winning, then env. It returns nil when the container takes neither from elsewhere (its own
// env values decide, as Seen.Env holds them). get nil reads no ConfigMap.
func ResolveWatchEnv(ctx context.Context, c corev1.Container, podNS string, get ConfigMapKey) *WatchEnv {
	if !takesWatchEnv(c) {
		return nil
	}
	w := &WatchEnv{Values: map[string]string{}}
	for _, name := range namespaceEnv {
		v, ok, note := resolveOne(ctx, c, podNS, name, get)
		if ok {
			w.Values[name] = v
		} else {
			w.Unresolved = append(w.Unresolved, name)
			w.Notes = append(w.Notes, note)
		}
	}
	return w
}

// takesWatchEnv says whether c may take WATCH_NAMESPACE(S) from elsewhere.
func takesWatchEnv(c corev1.Container) bool {
	if len(c.EnvFrom) > 0 {
		return true
	}
	for _, e := range c.Env {
		if e.ValueFrom != nil && isNamespaceEnv(e.Name) {
			return true
		}
	}
	return false
}

func isNamespaceEnv(name string) bool {
	for _, n := range namespaceEnv {
		if n == name {
			return true
		}
	}
	return false
}

// resolveOne resolves variable name: its value, or false with why it is not known.
func resolveOne(ctx context.Context, c corev1.Container, podNS, name string, get ConfigMapKey) (string, bool, string) {
	// env wins over envFrom: the last entry of that name.
	for i := len(c.Env) - 1; i >= 0; i-- {
		e := c.Env[i]
		if e.Name != name {
			continue
		}
		if e.ValueFrom == nil {
			return e.Value, true, ""
		}
		return fromSource(ctx, *e.ValueFrom, podNS, name, get)
	}
	value, known, note := "", true, ""
	for _, from := range c.EnvFrom {
		if !strings.HasPrefix(name, from.Prefix) {
			continue
		}
		key := strings.TrimPrefix(name, from.Prefix)
		switch {
		case from.SecretRef != nil:
			value, known = "", false
			note = fmt.Sprintf("%s may come from Secret %s (envFrom), which is never read", name, from.SecretRef.Name)
		case from.ConfigMapRef != nil:
			v, found, err := configMapKey(ctx, get, podNS, from.ConfigMapRef.Name, key, optional(from.ConfigMapRef.Optional))
			switch {
			case err != nil:
				value, known = "", false
				note = fmt.Sprintf("%s may come from ConfigMap %s (envFrom), which could not be read (%v)", name, from.ConfigMapRef.Name, err)
			case found:
				value, known, note = v, true, ""
			}
		}
	}
	return value, known, note
}

// fromSource resolves a valueFrom.
func fromSource(ctx context.Context, s corev1.EnvVarSource, podNS, name string, get ConfigMapKey) (string, bool, string) {
	switch {
	case s.FieldRef != nil && s.FieldRef.FieldPath == "metadata.namespace":
		return podNS, true, ""
	case s.ConfigMapKeyRef != nil:
		ref := s.ConfigMapKeyRef
		v, found, err := configMapKey(ctx, get, podNS, ref.Name, ref.Key, optional(ref.Optional))
		if err != nil {
			return "", false, fmt.Sprintf("%s comes from ConfigMap %s, which could not be read (%v)", name, ref.Name, err)
		}
		if !found {
			return "", true, ""
		}
		return v, true, ""
	case s.SecretKeyRef != nil:
		return "", false, fmt.Sprintf("%s comes from Secret %s, which is never read", name, s.SecretKeyRef.Name)
	case s.FieldRef != nil:
		return "", false, fmt.Sprintf("%s comes from field %s, which is not resolved", name, s.FieldRef.FieldPath)
	}
	return "", false, fmt.Sprintf("%s comes from a source that is not resolved", name)
}

// configMapKey reads a key of a ConfigMap of the pod's namespace; a ConfigMap that is not
// there and was optional sets nothing.
func configMapKey(ctx context.Context, get ConfigMapKey, ns, name, key string, optional bool) (string, bool, error) {
	if get == nil {
		return "", false, fmt.Errorf("no cluster to read it from")
	}
	v, found, err := get(ctx, ns, name, key)
	if optional && errors.Is(err, ErrNoConfigMap) {
		return "", false, nil
	}
	return v, found, err
}

// ErrNoConfigMap is ConfigMapKey's answer for a ConfigMap that is not there.
var ErrNoConfigMap = errors.New("it is not there")

func optional(b *bool) bool { return b != nil && *b }

// Env is env, the container's environment as Seen holds it, with WATCH_NAMESPACE and
// WATCH_NAMESPACES as w resolved them: a value, or Unknown for those it could not.
func (w *WatchEnv) Env(env map[string]string) map[string]string {
	if w == nil {
		return env
	}
	out := make(map[string]string, len(env)+len(namespaceEnv))
	for k, v := range env {
		out[k] = v
	}
	for _, name := range namespaceEnv {
		delete(out, name)
	}
	for name, v := range w.Values {
		if v != "" {
			out[name] = v
		}
	}
	for _, name := range w.Unresolved {
		out[name] = Unknown
	}
	return out
}
