package objects

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/dynamic"
)

// pageSize is how many objects one list call returns.
const pageSize = 500

// View is the objects of the kinds the controllers read reconcile.
type View struct {
	Kinds []Summary `json:"kinds"`
	// Notes say what could not be resolved or read, and how to help.
	Notes []string `json:"notes,omitempty"`
	// byController indexes Kinds by controller once the view is complete (Index).
	byController map[string]int
}

// Of returns the summary of the kind the controller name of target reconciles, or nil.
func (v *View) Of(target, name string) *Summary {
	if v == nil {
		return nil
	}
	id := target + " " + name
	if v.byController != nil {
		if i, ok := v.byController[id]; ok {
			return &v.Kinds[i]
		}
		return nil
	}
	for i := range v.Kinds {
		for _, c := range v.Kinds[i].Controllers {
			if c == id {
				return &v.Kinds[i]
			}
		}
	}
	return nil
}

// maxObjects bounds the objects read of one kind: a cluster-wide kind of a large cluster is
// read up to it, and a note says so.
var maxObjects = 5000

// Read lists, once per kind, the objects the bound controllers reconcile where p places them
// (kinds without a namespace are listed whole), in pages up to maxObjects, and summarizes
// them. A kind that may not be listed gets a summary whose Error names the verb and resource.
// The notes say which kinds were read only in part.
func Read(ctx context.Context, dyn dynamic.Interface, bindings []Binding, p Places, now time.Time) ([]Summary, []string) {
	byKind := map[Kind]*Summary{}
	var order []Kind
	for _, b := range bindings {
		s := byKind[b.Kind]
		if s == nil {
			s = &Summary{Kind: b.Kind, Controllers: []string{}, Namespace: p.Of(b.Kind)}
			if p.All[b.Kind] {
				s.Scope = p.Why[b.Kind]
			}
			if nss := p.In(b.Kind); len(p.Each[b.Kind]) > 0 && len(nss) > 0 {
				s.Namespace, s.Namespaces = "", nss
			}
			byKind[b.Kind] = s
			order = append(order, b.Kind)
		}
		s.Controllers = append(s.Controllers, b.Controller.Target+" "+b.Controller.Name)
	}
	out := make([]Summary, 0, len(order))
	var notes []string
	for _, k := range order {
		s := byKind[k]
		var capped bool
		for _, ns := range s.places() {
			s.Error, capped = list(ctx, dyn, s, ns, now)
			if s.Error != "" || capped {
				break
			}
		}
		if capped {
			s.Capped = true
			notes = append(notes, fmt.Sprintf("%s: only the first %d objects %s were read; the figures count those", k.GroupResource(), s.Total, s.where()))
		}
		s.Sort()
		sort.Strings(s.Controllers)
		out = append(out, *s)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Kind.GroupResource() < out[j].Kind.GroupResource() })
	return out, notes
}

// places are the namespaces the summary's objects are listed in, one list each.
func (s *Summary) places() []string {
	if len(s.Namespaces) > 0 {
		return s.Namespaces
	}
	return []string{s.Namespace}
}

// where says where the summary's objects were read.
func (s *Summary) where() string {
	if len(s.Namespaces) > 0 {
		return "in namespaces " + strings.Join(s.Namespaces, ", ")
	}
	return where(s.Kind, s.Namespace)
}

// list pages through the kind's objects of namespace ns into s, up to maxObjects in all, and
// returns why it stopped early, if it did, and whether there were more than it read.
func list(ctx context.Context, dyn dynamic.Interface, s *Summary, ns string, now time.Time) (string, bool) {
	opts := metav1.ListOptions{Limit: pageSize}
	for {
		left := int64(maxObjects - s.Total)
		if left <= 0 {
			return "", true
		}
		if left < opts.Limit {
			opts.Limit = left
		}
		l, err := dyn.Resource(s.Kind.GVR()).Namespace(ns).List(ctx, opts)
		if err != nil {
			return requestError(s.Kind, ns, "list", "verb list", err), false
		}
		for i := range l.Items {
			s.Add(&l.Items[i], now)
		}
		if l.GetContinue() == "" {
			return "", false
		}
		if s.Total >= maxObjects {
			return "", true
		}
		opts.Continue = l.GetContinue()
	}
}

// requestError says what verb on the kind's objects in namespace ns ("" for all) failed, and
// for a refusal the RBAC verbs (rbac) it needs.
func requestError(k Kind, ns, verb, rbac string, err error) string {
	if apierrors.IsForbidden(err) {
		return fmt.Sprintf("may not %s %s %s: needs RBAC %s on %s", verb, k.GroupResource(), where(k, ns), rbac, k.GroupResource())
	}
	return fmt.Sprintf("%s %s %s: %v", verb, k.GroupResource(), where(k, ns), err)
}

// where says where a kind's objects were read: "in all namespaces", "in namespace ops",
// "(cluster-scoped)".
func where(k Kind, ns string) string {
	switch {
	case !k.Namespaced:
		return "(cluster-scoped)"
	case ns != "":
		return "in namespace " + ns
	}
	return "in all namespaces"
}
