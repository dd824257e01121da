package events

import (
	"context"
	"fmt"
	"slices"
	"strings"
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
			notes = append(notes, fmt.Sprintf("the controllers of %s reconcile every namespace, but you may not list events in all namespaces (needs RBAC verb list on events cluster-wide): Warning events read in namespace %s only",
				names(req.ClusterWide), req.Namespace))
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
