package objects

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// Places says, per kind, the namespace its objects are read in.
type Places struct {
	// Namespace is where the report looks ("" for all namespaces).
	Namespace string
	// All are the kinds read in every namespace although Namespace is set: a controller that
	// reconciles them cluster-wide is read, and the user may list them in all namespaces.
	All map[Kind]bool
}

// Of is the namespace the kind's objects are read in ("" for all).
func (p Places) Of(k Kind) string {
	if !k.Namespaced || p.All[k] {
		return ""
	}
	return p.Namespace
}

// MayListAll answers whether the user may list a kind's objects in all namespaces (a
// SelfSubjectAccessReview of verb list, cluster-wide).
type MayListAll func(ctx context.Context, k Kind) (bool, error)

// Place decides where each bound kind is read. With a namespace to look at, a namespaced
// kind that a cluster-wide controller reconciles (kube-controller-manager, an operator whose
// flags make it watch every namespace) is read in all namespaces when may says the user may
// list it there; otherwise in the namespace, and a note says what is not seen and the RBAC
// that would show it. may nil never widens.
func Place(ctx context.Context, bindings []Binding, ns string, may MayListAll) (Places, []string) {
	p := Places{Namespace: ns, All: map[Kind]bool{}}
	if ns == "" || may == nil {
		return p, nil
	}
	wide := map[Kind][]string{}
	var order []Kind
	for _, b := range bindings {
		if !b.Kind.Namespaced || !b.Controller.ClusterWide {
			continue
		}
		if wide[b.Kind] == nil {
			order = append(order, b.Kind)
		}
		wide[b.Kind] = append(wide[b.Kind], b.Controller.Name)
	}
	var notes []string
	for _, k := range order {
		ok, err := may(ctx, k)
		switch {
		case err != nil:
			notes = append(notes, fmt.Sprintf("controller %s reconciles %s in every namespace, but whether you may list them there could not be checked (%v): read in namespace %s only",
				names(wide[k]), k.GroupResource(), err, ns))
		case !ok:
			notes = append(notes, fmt.Sprintf("controller %s reconciles %s in every namespace, but you may not list them in all namespaces (needs RBAC verb list on %s cluster-wide): read in namespace %s only",
				names(wide[k]), k.GroupResource(), k.GroupResource(), ns))
		default:
			p.All[k] = true
		}
	}
	return p, notes
}

// names are the controllers' names, sorted, each once.
func names(ns []string) string {
	slices.Sort(ns)
	return strings.Join(slices.Compact(ns), ", ")
}
