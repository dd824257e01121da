package objects

import (
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupVersions are the group versions of the bindings' kinds, each once, in order.
func GroupVersions(bs []Binding) []schema.GroupVersion {
	var out []schema.GroupVersion
	seen := map[schema.GroupVersion]bool{}
	for _, b := range bs {
		gv := schema.GroupVersion{Group: b.Kind.Group, Version: b.Kind.Version}
		if !seen[gv] {
			seen[gv] = true
			out = append(out, gv)
		}
	}
	return out
}

// MarkStatusSubresources sets Kind.NoStatusSubresource on the bindings whose group version's
// full discovery list (subresources included; the preferred resources leave them out) is in
// lists and names no RESOURCE/status. A group version not in lists leaves its kinds unmarked:
// their spec latency is measured as if they had one.
func MarkStatusSubresources(bs []Binding, lists []*metav1.APIResourceList) {
	status := map[string]map[string]bool{}
	for _, l := range lists {
		if l == nil {
			continue
		}
		m := map[string]bool{}
		for _, r := range l.APIResources {
			if name, ok := strings.CutSuffix(r.Name, "/status"); ok {
				m[name] = true
			}
		}
		status[l.GroupVersion] = m
	}
	for i := range bs {
		k := &bs[i].Kind
		if m, ok := status[schema.GroupVersion{Group: k.Group, Version: k.Version}.String()]; ok {
			k.NoStatusSubresource = !m[k.Resource]
		}
	}
}
