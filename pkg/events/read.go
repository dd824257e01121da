package events

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

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
}

// Read lists the Warning events (core/v1, field selector type=Warning) of the namespaces the
// request places them in, in pages and up to maxEvents, and keeps those that speak of the
// controllers and last happened since req.Since, grouped by reason and object, the newest
// maxGroups. A permission the user lacks, or a list that fails, is a note, never an error.
func Read(ctx context.Context, client kubernetes.Interface, req Request) View {
	v := View{Since: req.Since, Groups: []Group{}}
	if len(req.Controllers) == 0 {
		return v
	}
	var notes []string
	v.Namespaces, notes = place(ctx, req, func(ctx context.Context, ns string) (bool, error) {
		missing, err := access.Missing(ctx, client, []access.Permission{{Verb: "list", Resource: "events", Namespace: ns,
			For: "to read the Warning events of the controllers' objects"}})
		return len(missing) == 0, err
	})
	v.Notes = append(v.Notes, notes...)
	groups := map[string]*Group{}
	for _, ns := range v.Namespaces {
		if err := v.list(ctx, client, ns, req, groups); err != nil {
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

// list pages through the Warning events of ns into groups, until the list ends or maxEvents
// were read in all.
func (v *View) list(ctx context.Context, client kubernetes.Interface, ns string, req Request, groups map[string]*Group) error {
	opts := metav1.ListOptions{FieldSelector: "type=" + corev1.EventTypeWarning, Limit: pageSize}
	for {
		l, err := client.CoreV1().Events(ns).List(ctx, opts)
		if err != nil {
			return err
		}
		for i := range l.Items {
			if v.Read >= maxEvents {
				break
			}
			v.Read++
			add(groups, &l.Items[i], req)
		}
		if l.Continue == "" {
			return nil
		}
		if v.Read >= maxEvents {
			v.Capped = true
			v.Notes = append(v.Notes, fmt.Sprintf("only the first %d Warning events %s were read", maxEvents, where(ns)))
			return nil
		}
		opts.Continue = l.Continue
	}
}

// add counts e in its group when it is a Warning of the window that speaks of a controller.
func add(groups map[string]*Group, e *corev1.Event, req Request) {
	if e.Type != corev1.EventTypeWarning {
		return
	}
	last := lastSeen(e)
	if last.Before(req.Since) {
		return
	}
	reporter := e.ReportingController
	if reporter == "" {
		reporter = e.Source.Component
	}
	gv, _ := schema.ParseGroupVersion(e.InvolvedObject.APIVersion)
	kind := Kind{Group: gv.Group, Kind: e.InvolvedObject.Kind}
	var ids []string
	for _, c := range req.Controllers {
		if slices.Contains(c.Components, reporter) || slices.Contains(c.Components, e.Source.Component) || slices.Contains(c.Kinds, kind) {
			ids = append(ids, c.ID)
		}
	}
	if len(ids) == 0 {
		return
	}
	object := e.InvolvedObject.Name
	if ns := e.InvolvedObject.Namespace; ns != "" {
		object = ns + "/" + object
	}
	key := e.Reason + "\x00" + kind.Kind + "\x00" + object
	g := groups[key]
	if g == nil {
		g = &Group{Reason: e.Reason, Kind: kind.Kind, Object: object}
		groups[key] = g
	}
	g.Count += count(e)
	if !last.Before(g.LastSeen) {
		g.LastSeen, g.Message, g.Reporter = last, short(e.Message), reporter
	}
	for _, id := range ids {
		if !slices.Contains(g.Controllers, id) {
			g.Controllers = append(g.Controllers, id)
		}
	}
}

// lastSeen is the event's last occurrence: the latest of its series, last timestamp, event
// time and creation.
func lastSeen(e *corev1.Event) time.Time {
	t := e.CreationTimestamp.Time
	for _, c := range []time.Time{e.LastTimestamp.Time, e.EventTime.Time} {
		if c.After(t) {
			t = c
		}
	}
	if e.Series != nil && e.Series.LastObservedTime.After(t) {
		t = e.Series.LastObservedTime.Time
	}
	return t
}

// count is how often the event happened: its series' count, else its count, at least once.
func count(e *corev1.Event) int32 {
	n := e.Count
	if e.Series != nil && e.Series.Count > n {
		n = e.Series.Count
	}
	return max(n, 1)
}

// combined is what the event recorder puts before the message of events it aggregates.
const combined = "(combined from similar events): "

// short is the message on one line, without the recorder's aggregation prefix (the count
// says it), at most maxMessage bytes.
func short(m string) string {
	m = strings.Join(strings.Fields(m), " ")
	m = strings.TrimPrefix(m, combined)
	if len(m) > maxMessage {
		m = m[:maxMessage] + "..."
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
