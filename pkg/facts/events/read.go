package events

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/access"
)

// Bounds of one read: events listed per page, events listed in all, groups kept, and the
// characters of a message kept.
var (
	pageSize   int64 = 500
	maxEvents        = 5000
	maxGroups        = 100
	maxMessage       = 300
)

// Request is what to read.
type Request struct {
	// Namespace is the report's namespace ("" for all).
	Namespace string
	// ClusterWide names the targets whose controllers reconcile every namespace: with a Namespace,
	// events are read in all namespaces when the user may list them there.
	ClusterWide []string
	// Since is the oldest last occurrence to keep.
	Since       time.Time
	Controllers []Controller
	// Candidates lists the namespaces (the request's first, a bounded number, and how many more
	// were not listed) in which events are read one by one, where the user may list them, when
	// a controller reconciles every namespace but the user may not list events in all of them;
	// nil reads the request's namespace only then.
	Candidates func(ctx context.Context) (namespaces []string, more int, err error)
}

// Read lists the Warning events (field selector type=Warning) of the namespaces the request
// places them in, in pages and up to maxEvents, and keeps those that speak of the
// controllers and last happened since req.Since, grouped by reason and object, the newest
// maxGroups. It reads events.k8s.io/v1 where the user may list those, else core/v1 (the same
// events, another API; RBAC grants them apart). A permission the user lacks, or a list that
// fails, is a note, never an error.
func Read(ctx context.Context, client kubernetes.Interface, req Request) View {
	v := View{Since: req.Since, Groups: []Group{}}
	if len(req.Controllers) == 0 {
		return v
	}
	var notes []string
	api := map[string]string{} // by namespace, the group of the events API the user may list there
	var mu sync.Mutex
	v.Namespaces, notes = place(ctx, req, func(ctx context.Context, ns string) (bool, error) {
		group, ok, err := listable(ctx, client, ns)
		if ok {
			mu.Lock()
			api[ns] = group
			mu.Unlock()
		}
		return ok, err
	})
	v.Notes = append(v.Notes, notes...)
	groups := map[string]*Group{}
	for _, ns := range v.Namespaces {
		list := v.listCore
		if api[ns] == eventsGroup {
			list = v.listV1
		}
		if err := list(ctx, client, ns, req, groups); err != nil {
			v.Notes = append(v.Notes, fmt.Sprintf("the Warning events %s were not read: %s", where(ns), why(err, ns)))
		}
		if v.Read >= maxEvents {
			break
		}
	}
	for _, g := range groups {
		slices.Sort(g.Controllers)
		v.Groups = append(v.Groups, *g)
	}
	sortGroups(v.Groups)
	if len(v.Groups) > maxGroups {
		v.Notes = append(v.Notes, fmt.Sprintf("only the newest %d of %d groups of Warning events are kept", maxGroups, len(v.Groups)))
		v.Groups, v.Capped = v.Groups[:maxGroups], true
	}
	return v
}

// eventsGroup is the API group of events.k8s.io/v1.
const eventsGroup = "events.k8s.io"

// listable says which events API the user may list in namespace ns ("" for all):
// events.k8s.io/v1 (eventsGroup) where they may, else core/v1 (""); ok false when neither.
func listable(ctx context.Context, client kubernetes.Interface, ns string) (group string, ok bool, err error) {
	for _, group := range []string{eventsGroup, ""} {
		missing, err := access.Missing(ctx, client, []access.Permission{{Verb: "list", Group: group, Resource: "events", Namespace: ns,
			For: "to read the Warning events of the controllers' objects"}})
		if err != nil {
			return "", false, err
		}
		if len(missing) == 0 {
			return group, true, nil
		}
	}
	return "", false, nil
}

// listCore pages through the core/v1 Warning events of ns into groups, until the list ends or
// maxEvents were read in all.
func (v *View) listCore(ctx context.Context, client kubernetes.Interface, ns string, req Request, groups map[string]*Group) error {
	return v.list(ns, req, groups, func(opts metav1.ListOptions) ([]occurrence, string, error) {
		l, err := client.CoreV1().Events(ns).List(ctx, opts)
		if err != nil {
			return nil, "", err
		}
		return occurrences(l.Items, fromCore), l.Continue, nil
	})
}

// listV1 pages through the events.k8s.io/v1 Warning events of ns into groups, as listCore.
func (v *View) listV1(ctx context.Context, client kubernetes.Interface, ns string, req Request, groups map[string]*Group) error {
	return v.list(ns, req, groups, func(opts metav1.ListOptions) ([]occurrence, string, error) {
		l, err := client.EventsV1().Events(ns).List(ctx, opts)
		if err != nil {
			return nil, "", err
		}
		return occurrences(l.Items, fromV1), l.Continue, nil
	})
}

// occurrences reads each event of a page.
func occurrences[E any](items []E, read func(*E) occurrence) []occurrence {
	out := make([]occurrence, len(items))
	for i := range items {
		out[i] = read(&items[i])
	}
	return out
}

// list pages through the Warning events of ns that page gives, one page a call, into groups,
// until the list ends or maxEvents were read in all.
func (v *View) list(ns string, req Request, groups map[string]*Group, page func(metav1.ListOptions) ([]occurrence, string, error)) error {
	opts := metav1.ListOptions{FieldSelector: "type=" + corev1.EventTypeWarning, Limit: pageSize}
	for {
		items, cont, err := page(opts)
		if err != nil {
			return err
		}
		for _, o := range items {
			if v.Read >= maxEvents {
				break
			}
			v.Read++
			add(groups, o, req)
		}
		if v.capped(ns, cont) {
			return nil
		}
		opts.Continue = cont
	}
}

// capped says whether a list of ns ends here: its last page (cont empty), or maxEvents read in
// all (then noted).
func (v *View) capped(ns, cont string) bool {
	if cont == "" {
		return true
	}
	if v.Read >= maxEvents {
		v.Capped = true
		v.Notes = append(v.Notes, fmt.Sprintf("only the first %d Warning events %s were read", maxEvents, where(ns)))
		return true
	}
	return false
}

// add counts e in its group when it is a Warning of the window that speaks of a controller.
func add(groups map[string]*Group, e occurrence, req Request) {
	if e.typ != corev1.EventTypeWarning || e.last.Before(req.Since) {
		return
	}
	reporter := e.reporter
	if reporter == "" {
		reporter = e.component
	}
	gv, _ := schema.ParseGroupVersion(e.regarding.APIVersion)
	kind := Kind{Group: gv.Group, Kind: e.regarding.Kind}
	var ids []string
	for _, c := range req.Controllers {
		if slices.Contains(c.Components, reporter) || slices.Contains(c.Components, e.component) || slices.Contains(c.Kinds, kind) {
			ids = append(ids, c.ID)
		}
	}
	if len(ids) == 0 {
		return
	}
	object := e.regarding.Name
	if ns := e.regarding.Namespace; ns != "" {
		object = ns + "/" + object
	}
	key := e.reason + "\x00" + kind.Kind + "\x00" + object
	g := groups[key]
	if g == nil {
		g = &Group{Reason: e.reason, Kind: kind.Kind, Object: object}
		groups[key] = g
	}
	g.Count += e.count
	if !e.last.Before(g.LastSeen) {
		g.LastSeen, g.Message, g.Reporter = e.last, short(e.message), reporter
	}
	for _, id := range ids {
		if !slices.Contains(g.Controllers, id) {
			g.Controllers = append(g.Controllers, id)
		}
	}
}

// combined is what the event recorder puts before the message of events it aggregates.
const combined = "(combined from similar events): "

// short is the message on one line, without the recorder's aggregation prefix (the count
// says it), at most maxMessage bytes, cut between characters.
func short(m string) string {
	m = strings.Join(strings.Fields(m), " ")
	m = strings.TrimPrefix(m, combined)
	if len(m) > maxMessage {
		cut := maxMessage
		for cut > 0 && !utf8.RuneStart(m[cut]) {
			cut--
		}
		m = m[:cut] + "..."
	}
	return m
}

// where names a namespace to read: "in namespace ops", "in all namespaces".
func where(ns string) string {
	if ns == "" {
		return "in all namespaces"
	}
	return "in namespace " + ns
}

// why says why a list failed, naming the permission when it was refused.
func why(err error, ns string) string {
	if apierrors.IsForbidden(err) {
		return "needs RBAC verb list on events " + where(ns)
	}
	return err.Error()
}
