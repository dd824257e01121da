package apiserver

import (
	"context"
	"fmt"
	"sort"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/metadata"
)

// MaxProbeKinds bounds the kinds one owner-reference probe looks at.
const MaxProbeKinds = 8

// maxProbeLists bounds the lists one probe makes (kinds by namespaces).
const maxProbeLists = 8

// probePage is how many objects' metadata one probe list returns: one page, never more.
const probePage = 200

// MayList answers whether the user may list a kind's objects in namespace ns ("" for all).
type MayList func(ctx context.Context, k ProbeKind, ns string) (bool, error)

// Probe finds the kinds the owners own among kinds: for each kind, in each namespace where
// owners' objects were read (once for a kind without a namespace), it lists one page of its
// objects' metadata and counts those whose controller ownerReference is of an owner's kind.
// It makes at most maxProbeLists lists, each asked of may first; a list that may not be made
// is a note naming the permission, never an error.
func Probe(ctx context.Context, meta metadata.Interface, kinds []ProbeKind, owners []Owner, may MayList) Ownership {
	var o Ownership
	if len(owners) == 0 {
		return o
	}
	lists := 0
	var skipped []string
	for _, k := range kinds {
		for _, p := range places(k, owners) {
			if lists >= maxProbeLists {
				skipped = append(skipped, k.GroupResource()+" "+where(k, p.ns))
				continue
			}
			lists++
			if may != nil {
				ok, err := may(ctx, k, p.ns)
				switch {
				case err != nil:
					o.Notes = append(o.Notes, fmt.Sprintf("whether you may list %s %s could not be checked (%v): the kinds controllers own were not probed there", k.GroupResource(), where(k, p.ns), err))
					continue
				case !ok:
					o.Notes = append(o.Notes, denied(k, p.ns))
					continue
				}
			}
			l, err := meta.Resource(k.GVR()).Namespace(p.ns).List(ctx, metav1.ListOptions{Limit: probePage})
			switch {
			case apierrors.IsForbidden(err):
				o.Notes = append(o.Notes, denied(k, p.ns))
				continue
			case err != nil:
				o.Notes = append(o.Notes, fmt.Sprintf("%s %s were not listed to find the kinds controllers own: %v", k.GroupResource(), where(k, p.ns), err))
				continue
			}
			objs := make([]metav1.ObjectMeta, 0, len(l.Items))
			for i := range l.Items {
				objs = append(objs, l.Items[i].ObjectMeta)
			}
			o.Owned = append(o.Owned, Match(k, p.ns, objs, p.owners)...)
		}
	}
	if len(skipped) > 0 {
		o.Notes = append(o.Notes, fmt.Sprintf("the owner-reference probe makes %d lists at most: %s not listed", maxProbeLists, strings.Join(skipped, ", ")))
	}
	return o
}

// place is one list of a probe: a namespace ("" for all) and the owners whose objects were
// read there.
type place struct {
	ns     string
	owners []Owner
}

// places are where kind k is listed: once in all namespaces for a kind without one;
// otherwise once per namespace the owners' objects were read in ("" for those read in every
// namespace), sorted.
func places(k ProbeKind, owners []Owner) []place {
	if !k.Namespaced {
		return []place{{owners: owners}}
	}
	by := map[string][]Owner{}
	for _, o := range owners {
		by[o.Namespace] = append(by[o.Namespace], o)
	}
	out := make([]place, 0, len(by))
	for ns, os := range by {
		out = append(out, place{ns: ns, owners: os})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ns < out[j].ns })
	return out
}

func denied(k ProbeKind, ns string) string {
	return fmt.Sprintf("may not list %s %s to find the kinds controllers own: needs RBAC verb list on %s", k.GroupResource(), where(k, ns), k.GroupResource())
}

// where says where a kind's objects were listed.
func where(k ProbeKind, ns string) string {
	switch {
	case !k.Namespaced:
		return "(cluster-scoped)"
	case ns != "":
		return "in namespace " + ns
	}
	return "in all namespaces"
}
