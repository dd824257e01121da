package objects

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
)

// Places says, per kind, the namespace its objects are read in.
type Places struct {
	// Namespace is where the report looks ("" for all namespaces).
	Namespace string
	// All are the kinds read in every namespace although Namespace is set: a controller that
	// reconciles them cluster-wide is read, and the user may list them in all namespaces.
	All map[Kind]bool
	// Why says, of a kind of All that its controller's RBAC made cluster-wide, where that
	// came from: "controller workload reconciles workloads.demo.ctrldiag.dev in every
	// namespace (ClusterRole op bound to its ServiceAccount ops/op by ClusterRoleBinding op)".
	Why map[Kind]string
	// Each are the kinds read namespace by namespace, in the namespaces given: a cluster-wide
	// controller's kind the user may not list in all namespaces but may in these.
	Each map[Kind][]string
}

// In are the namespaces the kind's objects are read in, one list each ("" for all).
func (p Places) In(k Kind) []string {
	if nss := p.Each[k]; len(nss) > 0 && k.Namespaced && !p.All[k] {
		return nss
	}
	return []string{p.Of(k)}
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

// MayListEach answers, for a kind the user may not list in all namespaces, in which
// namespaces the user may list it (ns, the report's namespace, first when it is one of them),
// up to a bound, and how many namespaces beyond the bound were not checked. An error says why
// the namespaces could not be listed or checked (the RBAC that would).
type MayListEach func(ctx context.Context, k Kind, ns string) (namespaces []string, unchecked int, err error)

// ByRBAC answers whether a ClusterRoleBinding lets the ServiceAccount account
// ("namespace/name") list or watch a kind in every namespace: where that comes from
// ("ClusterRole op bound to its ServiceAccount ops/op by ClusterRoleBinding op"), or "" when
// none does. An error says why it could not be decided, with the RBAC that would decide it.
type ByRBAC func(ctx context.Context, account string, k Kind) (string, error)

// Place decides where each bound kind is read. With a namespace to look at, a namespaced
// kind that a cluster-wide controller reconciles (kube-controller-manager, an operator whose
// flags make it watch every namespace, or, for a controller left to its ServiceAccount, one
// whose ClusterRoleBindings let it list or watch the kind everywhere, as rbac says) is read in
// all namespaces when may says the user may list it there; otherwise in the namespace, and a
// note says what is not seen and the RBAC that would show it. A controller whose RBAC could
// not be read stays in the namespace, with a note, and so does one whose WATCH_NAMESPACE could
// not be resolved (Controller.Unsure; a note when its RBAC would have widened it). may nil
// never widens; rbac nil widens no controller left to its ServiceAccount. A kind the user may
// not list in all namespaces is read namespace by namespace where each says the user may list
// it (each nil: in the namespace), and the note says which namespaces were read.
func Place(ctx context.Context, bindings []Binding, ns string, may MayListAll, rbac ByRBAC, each MayListEach) (Places, []string) {
	p := Places{Namespace: ns, All: map[Kind]bool{}, Why: map[Kind]string{}, Each: map[Kind][]string{}}
	if ns == "" || may == nil {
		return p, nil
	}
	wide := map[Kind][]string{}
	var order []Kind
	undecided := map[string][]string{} // controllers by why their RBAC could not be read
	var errs, unsure []string
	for _, b := range bindings {
		if !b.Kind.Namespaced {
			continue
		}
		if !b.Controller.ClusterWide {
			why, err := byRBAC(ctx, rbac, b)
			if err != nil {
				if undecided[err.Error()] == nil {
					errs = append(errs, err.Error())
				}
				undecided[err.Error()] = append(undecided[err.Error()], b.Controller.Name)
			}
			if why == "" {
				continue
			}
			if b.Controller.Unsure != "" {
				unsure = append(unsure, fmt.Sprintf("controller %s would reconcile %s in every namespace (%s), but %s: it is taken to watch its own namespace only, and %s are read in namespace %s only",
					b.Controller.Name, b.Kind.GroupResource(), why, b.Controller.Unsure, b.Kind.GroupResource(), ns))
				continue
			}
			if _, seen := p.Why[b.Kind]; !seen {
				p.Why[b.Kind] = fmt.Sprintf("controller %s reconciles %s in every namespace (%s)", b.Controller.Name, b.Kind.GroupResource(), why)
			}
		}
		if wide[b.Kind] == nil {
			order = append(order, b.Kind)
		}
		wide[b.Kind] = append(wide[b.Kind], b.Controller.Name)
	}
	notes := slices.Compact(unsure)
	for _, e := range errs {
		notes = append(notes, fmt.Sprintf("whether controller %s reconciles every namespace could not be decided from its ServiceAccount's ClusterRoleBindings (%s): its kinds are read in namespace %s only",
			names(undecided[e]), e, ns))
	}
	for _, k := range order {
		ok, err := may(ctx, k)
		switch {
		case err != nil:
			notes = append(notes, fmt.Sprintf("controller %s reconciles %s in every namespace, but whether you may list them there could not be checked (%v): read in namespace %s only",
				names(wide[k]), k.GroupResource(), err, ns))
		case !ok:
			notes = append(notes, p.eachNamespace(ctx, k, names(wide[k]), each))
		default:
			p.All[k] = true
			if why := p.Why[k]; why != "" {
				notes = append(notes, why)
			}
		}
	}
	return p, notes
}

// eachNamespace places a kind the user may not list in all namespaces namespace by namespace,
// where each says the user may list it, and says so; else in the namespace.
func (p Places) eachNamespace(ctx context.Context, k Kind, controllers string, each MayListEach) string {
	head := fmt.Sprintf("controller %s reconciles %s in every namespace, but you may not list them in all namespaces (needs RBAC verb list on %s cluster-wide)",
		controllers, k.GroupResource(), k.GroupResource())
	if each == nil {
		return fmt.Sprintf("%s: read in namespace %s only", head, p.Namespace)
	}
	nss, unchecked, err := each(ctx, k, p.Namespace)
	switch {
	case err != nil:
		return fmt.Sprintf("%s, and the namespaces you may list them in could not be found (%v): read in namespace %s only", head, err, p.Namespace)
	case len(nss) == 0:
		return fmt.Sprintf("%s, nor in any namespace checked: read in namespace %s only", head, p.Namespace)
	case len(nss) == 1 && nss[0] == p.Namespace && unchecked == 0:
		return fmt.Sprintf("%s, and may in namespace %s only: read there", head, p.Namespace)
	}
	p.Each[k] = nss
	note := fmt.Sprintf("%s: read namespace by namespace in the %s you may list them in (%s); the other namespaces were not allowed",
		head, printable.Plural(len(nss), "namespace"), strings.Join(nss, ", "))
	if unchecked > 0 {
		note += fmt.Sprintf(", and %s beyond the first %d were not checked", printable.Plural(unchecked, "namespace"), MaxNamespaces)
	}
	return note
}

// MaxNamespaces bounds the namespaces checked, and read, for a kind read namespace by
// namespace.
const MaxNamespaces = 50

// byRBAC asks rbac about a controller left to its ServiceAccount.
func byRBAC(ctx context.Context, rbac ByRBAC, b Binding) (string, error) {
	if b.Controller.ServiceAccount == "" || rbac == nil {
		return "", nil
	}
	return rbac(ctx, b.Controller.ServiceAccount, b.Kind)
}

// names are the controllers' names, sorted, each once.
func names(ns []string) string {
	slices.Sort(ns)
	return strings.Join(slices.Compact(ns), ", ")
}
