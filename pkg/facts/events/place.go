package events

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/access"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
)

// mayList answers whether the user may list events in namespace ns ("" for all).
type mayList func(ctx context.Context, ns string) (bool, error)

// place decides the namespaces to read: all of them for a report of every namespace; for a
// report of one namespace, all of them when a controller reconciles every namespace and the
// user may list events there, else that namespace. Notes say what is not read and the
// permission that would show it.
func place(ctx context.Context, req Request, may mayList) ([]string, []string) {
	var notes []string
	if req.Namespace != "" && len(req.ClusterWide) > 0 {
		ok, err := may(ctx, "")
		switch {
		case err != nil:
			notes = append(notes, fmt.Sprintf("the controllers of %s reconcile every namespace, but whether you may list events in all namespaces could not be checked (%v): Warning events read in namespace %s only",
				names(req.ClusterWide), err, req.Namespace))
		case !ok:
			head := fmt.Sprintf("the controllers of %s reconcile every namespace, but you may not list events in all namespaces (needs RBAC verb list on events cluster-wide)",
				names(req.ClusterWide))
			nss, note := eachNamespace(ctx, req, may, head)
			if nss != nil {
				return nss, []string{note}
			}
			notes = append(notes, note)
		default:
			return []string{""}, nil
		}
	}
	ok, err := may(ctx, req.Namespace)
	switch {
	case err != nil:
		return nil, append(notes, fmt.Sprintf("the Warning events %s were not read: whether you may list them could not be checked (%v)", where(req.Namespace), err))
	case !ok:
		return nil, append(notes, fmt.Sprintf("the Warning events %s were not read: needs RBAC verb list on events %s", where(req.Namespace), where(req.Namespace)))
	}
	return []string{req.Namespace}, notes
}

// names are the controllers' names, sorted, each once.
func names(ns []string) string {
	ns = slices.Clone(ns)
	slices.Sort(ns)
	return strings.Join(slices.Compact(ns), ", ")
}

// eachNamespace finds, for a report of one namespace whose controllers reconcile every
// namespace when the user may not list events in all of them, the namespaces Candidates lists
// in which the user may list events: with more than the report's namespace, those are read,
// and the note says so. Else nss is nil and the note says the report's namespace is read only.
func eachNamespace(ctx context.Context, req Request, may mayList, head string) (nss []string, note string) {
	only := fmt.Sprintf("Warning events read in namespace %s only", req.Namespace)
	if req.Candidates == nil {
		return nil, head + ": " + only
	}
	candidates, unchecked, err := req.Candidates(ctx)
	if err != nil {
		return nil, fmt.Sprintf("%s, and the namespaces you may list them in could not be found (%v): %s", head, err, only)
	}
	nss, failed, err := access.Each(ctx, candidates, may)
	if err != nil {
		return nil, fmt.Sprintf("%s, and whether you may list them in namespace %s could not be checked (%v): %s", head, failed, err, only)
	}
	if len(nss) == 0 || len(nss) == 1 && nss[0] == req.Namespace && unchecked == 0 {
		return nil, head + ": " + only
	}
	note = fmt.Sprintf("%s: Warning events read namespace by namespace in the %s you may list them in (%s); the other namespaces were not allowed",
		head, printable.Plural(len(nss), "namespace"), strings.Join(nss, ", "))
	if unchecked > 0 {
		note += fmt.Sprintf(", and %s beyond those were not checked", printable.Plural(unchecked, "namespace"))
	}
	return nss, note
}
