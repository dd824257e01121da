package knobs

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// configMaps is a ConfigMapKey over fixed ConfigMaps of namespace "ops", "denied" failing as
// RBAC would; it counts the keys asked.
type configMaps struct {
	data  map[string]map[string]string
	asked []string
}

func (c *configMaps) get(_ context.Context, ns, name, key string) (string, bool, error) {
	c.asked = append(c.asked, ns+"/"+name+"/"+key)
	if name == "denied" {
		return "", false, fmt.Errorf("you may not get configmaps in namespace %s", ns)
	}
	d, ok := c.data[name]
	if !ok || ns != "ops" {
		return "", false, ErrNoConfigMap
	}
	v, found := d[key]
	return v, found, nil
}

func TestResolveWatchEnv(t *testing.T) {
	yes := true
	cmEnv := func(name, prefix string) corev1.EnvFromSource {
		return corev1.EnvFromSource{Prefix: prefix, ConfigMapRef: &corev1.ConfigMapEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: name}}}
	}
	secretEnv := func(name, prefix string) corev1.EnvFromSource {
		return corev1.EnvFromSource{Prefix: prefix, SecretRef: &corev1.SecretEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: name}}}
	}
	field := func(path string) *corev1.EnvVarSource {
		return &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: path}}
	}
	cmKey := func(name, key string, opt *bool) *corev1.EnvVarSource {
		return &corev1.EnvVarSource{ConfigMapKeyRef: &corev1.ConfigMapKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: name}, Key: key, Optional: opt}}
	}
	for _, tc := range []struct {
		name       string
		c          corev1.Container
		restricted string // knobs.Restricted of the resolved environment
		watch      string // WATCH_NAMESPACE as resolved ("" when not)
		note       string // a part of the note, "" for none
	}{
		{name: "literal values decide alone", c: corev1.Container{Env: []corev1.EnvVar{{Name: "WATCH_NAMESPACE", Value: "ops"}}}, restricted: "WATCH_NAMESPACE"},
		{name: "the pod's namespace", c: corev1.Container{Env: []corev1.EnvVar{{Name: "WATCH_NAMESPACE", ValueFrom: field("metadata.namespace")}}},
			restricted: "WATCH_NAMESPACE", watch: "ops"},
		{name: "another field", c: corev1.Container{Env: []corev1.EnvVar{{Name: "WATCH_NAMESPACE", ValueFrom: field("metadata.annotations['ns']")}}},
			restricted: "WATCH_NAMESPACE", note: "field metadata.annotations['ns'], which is not resolved"},
		{name: "envFrom a ConfigMap that sets it", c: corev1.Container{EnvFrom: []corev1.EnvFromSource{cmEnv("scoped", "")}},
			restricted: "WATCH_NAMESPACE", watch: "team-a"},
		{name: "envFrom a ConfigMap that sets it empty", c: corev1.Container{EnvFrom: []corev1.EnvFromSource{cmEnv("wide", "")}}},
		{name: "envFrom a ConfigMap without it", c: corev1.Container{EnvFrom: []corev1.EnvFromSource{cmEnv("other", "")}}},
		{name: "envFrom with a prefix", c: corev1.Container{EnvFrom: []corev1.EnvFromSource{cmEnv("prefixed", "WATCH_")}},
			restricted: "WATCH_NAMESPACE", watch: "team-b"},
		{name: "a prefix that cannot name it", c: corev1.Container{EnvFrom: []corev1.EnvFromSource{cmEnv("scoped", "APP_"), secretEnv("creds", "DB_")}}},
		{name: "a later ConfigMap wins", c: corev1.Container{EnvFrom: []corev1.EnvFromSource{cmEnv("scoped", ""), cmEnv("wide", "")}}},
		{name: "env wins over envFrom", c: corev1.Container{EnvFrom: []corev1.EnvFromSource{cmEnv("scoped", "")}, Env: []corev1.EnvVar{{Name: "WATCH_NAMESPACE", Value: ""}}}},
		{name: "a Secret may set it", c: corev1.Container{EnvFrom: []corev1.EnvFromSource{cmEnv("wide", ""), secretEnv("creds", "")}},
			restricted: "WATCH_NAMESPACE", note: "Secret creds (envFrom), which is never read"},
		{name: "a secretKeyRef", c: corev1.Container{Env: []corev1.EnvVar{{Name: "WATCH_NAMESPACE", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "creds"}, Key: "ns"}}}}},
			restricted: "WATCH_NAMESPACE", note: "Secret creds, which is never read"},
		{name: "a configMapKeyRef", c: corev1.Container{Env: []corev1.EnvVar{{Name: "WATCH_NAMESPACES", ValueFrom: cmKey("scoped", "WATCH_NAMESPACE", nil)}}},
			restricted: "WATCH_NAMESPACES"},
		{name: "a configMapKeyRef to an empty value", c: corev1.Container{Env: []corev1.EnvVar{{Name: "WATCH_NAMESPACE", ValueFrom: cmKey("wide", "WATCH_NAMESPACE", nil)}}}},
		{name: "an optional ConfigMap not there", c: corev1.Container{Env: []corev1.EnvVar{{Name: "WATCH_NAMESPACE", ValueFrom: cmKey("gone", "ns", &yes)}}}},
		{name: "a ConfigMap not there", c: corev1.Container{Env: []corev1.EnvVar{{Name: "WATCH_NAMESPACE", ValueFrom: cmKey("gone", "ns", nil)}}},
			restricted: "WATCH_NAMESPACE", note: "ConfigMap gone, which could not be read (it is not there)"},
		{name: "a ConfigMap that may not be read", c: corev1.Container{EnvFrom: []corev1.EnvFromSource{cmEnv("denied", "")}},
			restricted: "WATCH_NAMESPACE", note: "ConfigMap denied (envFrom), which could not be read (you may not get configmaps in namespace ops)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cms := &configMaps{data: map[string]map[string]string{
				"scoped":   {"WATCH_NAMESPACE": "team-a", "PASSWORD": "hunter2"},
				"wide":     {"WATCH_NAMESPACE": ""},
				"other":    {"LOG_LEVEL": "debug"},
				"prefixed": {"NAMESPACE": "team-b"},
			}}
			w := ResolveWatchEnv(context.Background(), tc.c, "ops", cms.get)
			env := map[string]string{}
			for _, e := range tc.c.Env {
				env[e.Name] = e.Value
				if e.ValueFrom != nil {
					env[e.Name] = Unknown
				}
			}
			got := Restricted(Seen{Env: w.Env(env)})
			if got != tc.restricted {
				t.Errorf("restricted %q, want %q (resolved %+v)", got, tc.restricted, w)
			}
			if w != nil && w.Values["WATCH_NAMESPACE"] != tc.watch {
				t.Errorf("WATCH_NAMESPACE %q, want %q", w.Values["WATCH_NAMESPACE"], tc.watch)
			}
			notes := ""
			if w != nil {
				notes = strings.Join(w.Notes, "; ")
			}
			if tc.note == "" && notes != "" || !strings.Contains(notes, tc.note) {
				t.Errorf("notes %q, want one with %q", notes, tc.note)
			}
			for _, k := range cms.asked {
				if !strings.HasSuffix(k, "NAMESPACE") && !strings.HasSuffix(k, "NAMESPACES") && !strings.HasSuffix(k, "/ns") {
					t.Errorf("asked for key %s, which is not a namespace variable", k)
				}
			}
		})
	}
}

// The resolved decision is all a snapshot needs: the env Seen holds is rebuilt from it alone.
func TestWatchEnvKeepsOnlyTheDecision(t *testing.T) {
	w := &WatchEnv{Values: map[string]string{"WATCH_NAMESPACE": "ops", "WATCH_NAMESPACES": ""}, Unresolved: nil}
	got := w.Env(map[string]string{"WATCH_NAMESPACE": Unknown, Others: Unknown, "LOG": "x"})
	want := map[string]string{"WATCH_NAMESPACE": "ops", Others: Unknown, "LOG": "x"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("env %v, want %v", got, want)
	}
	if (*WatchEnv)(nil).Env(want)["LOG"] != "x" {
		t.Error("nil WatchEnv changed the environment")
	}
}
