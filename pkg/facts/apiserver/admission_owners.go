package apiserver

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// OwnedByOwnerReferences is how an owned kind was found: objects of the kind whose
// controller ownerReference is of the kind the controller reconciles.
const OwnedByOwnerReferences = "ownerReferences"

// Owner is a controller that may own objects: the kind it reconciles, and where its objects
// were read.
type Owner struct {
	// Controller is "target queue", as the objects view names it.
	Controller string
	// Group and Kind are the kind it reconciles ("demo.ctrldiag.dev", "Workload").
	Group, Kind string
	// Namespace is where the reconciled kind's objects were read ("" for every namespace,
	// and for a kind without a namespace): its children are there too.
	Namespace string
}

// ProbeKind is a kind a slow webhook intercepts, resolved by API discovery: one page of its
// objects' metadata says which controllers own them.
type ProbeKind struct {
	Group, Version, Resource string
	Namespaced               bool
}

// GVR is the resource to list.
func (k ProbeKind) GVR() schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: k.Group, Version: k.Version, Resource: k.Resource}
}

// GroupResource is the resource as RBAC names it: "configmaps", "deployments.apps".
func (k ProbeKind) GroupResource() string {
	return schema.GroupResource{Group: k.Group, Resource: k.Resource}.String()
}

// Ownership is what the owner-reference probe found: the kinds controllers own, and what it
// could not look at.
type Ownership struct {
	Owned []Owned `json:"owned,omitempty"`
	// Notes say what was not probed, and what permission would help.
	Notes []string `json:"notes,omitempty"`
	// byController indexes Owned by controller once the view is complete (Index).
	byController map[string][]Owned
}

// Owned is a kind a controller owns objects of.
type Owned struct {
	// Controller is "target queue".
	Controller string `json:"controller"`
	Group      string `json:"group"`
	Resource   string `json:"resource"`
	Namespaced bool   `json:"namespaced"`
	// OwnedBy says how it was found: "ownerReferences".
	OwnedBy string `json:"ownedBy"`
	// OwnerKind is the kind the objects' controller ownerReferences name ("Workload").
	OwnerKind string `json:"ownerKind"`
	// Objects of Listed objects (one page, in Namespace; "" for every namespace) have a
	// controller ownerReference of OwnerKind.
	Objects   int    `json:"objects"`
	Listed    int    `json:"listed"`
	Namespace string `json:"namespace,omitempty"`
}

// Evidence says where the owned kind came from: "configmaps (from ownerReferences): 12 of 40
// objects listed in namespace ops are controlled by a Workload".
func (o Owned) Evidence() string {
	where := "in all namespaces"
	switch {
	case !o.Namespaced:
		where = "(cluster-scoped)"
	case o.Namespace != "":
		where = "in namespace " + o.Namespace
	}
	res := schema.GroupResource{Group: o.Group, Resource: o.Resource}.String()
	return fmt.Sprintf("%s (from %s): %d of %d objects listed %s are controlled by a %s", res, o.OwnedBy, o.Objects, o.Listed, where, o.OwnerKind)
}

// Of are the kinds controller ("target queue") owns, nil when none was found or the probe
// did not run.
func (o *Ownership) Of(controller string) []Owned {
	if o == nil {
		return nil
	}
	if o.byController != nil {
		return slices.Clip(o.byController[controller]) // an append by the caller copies
	}
	var out []Owned
	for _, x := range o.Owned {
		if x.Controller == controller {
			out = append(out, x)
		}
	}
	return out
}

// Reconciled is the owned kind as a kind the controller writes.
func (o Owned) Reconciled() Reconciled {
	return Reconciled{Group: o.Group, Resource: o.Resource, Namespaced: o.Namespaced}
}

// ProbeKinds resolves the resources the webhooks' rules intercept (for CREATE, UPDATE or
// DELETE, the main resource; an API group "*" is every group that serves it) to kinds through
// API discovery's answer, each once and at most max; the notes say which were left out:
// resource wildcards (a rule on every resource would make the probe list every kind),
// resources discovery does not know, and those past max.
func ProbeKinds(hooks []Webhook, resources []*metav1.APIResourceList, max int) ([]ProbeKind, []string) {
	known := map[schema.GroupResource]ProbeKind{}
	for _, l := range resources {
		if l == nil {
			continue
		}
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		if err != nil {
			continue
		}
		for _, r := range l.APIResources {
			if strings.Contains(r.Name, "/") || !verb(r.Verbs, "list") {
				continue
			}
			known[schema.GroupResource{Group: gv.Group, Resource: r.Name}] = ProbeKind{Group: gv.Group, Version: gv.Version, Resource: r.Name, Namespaced: r.Namespaced}
		}
	}
	var out []ProbeKind
	var notes []string
	seen := map[schema.GroupResource]bool{}
	var past []string
	for _, h := range hooks {
		for _, r := range h.Rules {
			if !writes(r.Operations) {
				continue
			}
			for _, g := range r.APIGroups {
				for _, rr := range r.Resources {
					res, sub, _ := strings.Cut(rr, "/")
					if sub != "" && sub != "*" {
						continue // a subresource only: no object is created through it
					}
					if res == "*" {
						note := fmt.Sprintf("webhook %s intercepts every resource of API groups %s: the kinds controllers own were not probed for it", h.Name, strings.Join(r.APIGroups, ","))
						if !contains(notes, note) {
							notes = append(notes, note)
						}
						continue
					}
					for _, gr := range candidates(known, g, res) {
						if seen[gr] {
							continue
						}
						seen[gr] = true
						k, ok := known[gr]
						switch {
						case !ok:
							notes = append(notes, fmt.Sprintf("webhook %s intercepts %s, which API discovery does not list: not probed for the kinds controllers own", h.Name, gr.String()))
						case len(out) >= max:
							past = append(past, gr.String())
						default:
							out = append(out, k)
						}
					}
				}
			}
		}
	}
	if len(past) > 0 {
		notes = append(notes, fmt.Sprintf("the owner-reference probe looks at %d kinds at most: %s not probed", max, strings.Join(past, ", ")))
	}
	return out, notes
}

// candidates are the resources named res of API group g, or of every group discovery knows
// when g is "*", sorted.
func candidates(known map[schema.GroupResource]ProbeKind, g, res string) []schema.GroupResource {
	if g != "*" {
		return []schema.GroupResource{{Group: g, Resource: res}}
	}
	var out []schema.GroupResource
	for gr := range known {
		if gr.Resource == res {
			out = append(out, gr)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Group < out[j].Group })
	return out
}

// writes says whether operations hold one a controller's write passes through.
func writes(operations []string) bool {
	for _, op := range operations {
		if op == "*" || op == "CREATE" || op == "UPDATE" || op == "DELETE" {
			return true
		}
	}
	return false
}

func verb(verbs []string, v string) bool {
	for _, x := range verbs {
		if x == v {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Match counts, of the objects listed of kind k, those whose controller ownerReference is of
// each owner's kind, and returns an Owned for each owner that has at least one (an owner
// with none does not own the kind). listed is the objects' count; ns where they were listed.
func Match(k ProbeKind, ns string, objects []metav1.ObjectMeta, owners []Owner) []Owned {
	counts := map[schema.GroupKind]int{}
	for i := range objects {
		for _, ref := range objects[i].OwnerReferences {
			if ref.Controller == nil || !*ref.Controller {
				continue
			}
			gv, err := schema.ParseGroupVersion(ref.APIVersion)
			if err != nil {
				continue
			}
			counts[schema.GroupKind{Group: gv.Group, Kind: ref.Kind}]++
		}
	}
	var out []Owned
	for _, o := range owners {
		n := counts[schema.GroupKind{Group: o.Group, Kind: o.Kind}]
		if n == 0 {
			continue
		}
		out = append(out, Owned{Controller: o.Controller, Group: k.Group, Resource: k.Resource, Namespaced: k.Namespaced,
			OwnedBy: OwnedByOwnerReferences, OwnerKind: o.Kind, Objects: n, Listed: len(objects), Namespace: ns})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Controller < out[j].Controller })
	return out
}
