package events

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/kubernetes"
)

// Event is one Warning event on an object: its reason, message, how often it happened and
// when last.
type Event struct {
	Reason, Message string
	Count           int64
	LastSeen        time.Time
}

// Objects reads the Warning events on single objects the way Read reads them: from
// events.k8s.io/v1 where the user may list those in the object's namespace, else from core/v1
// (asked once per namespace). It is safe for concurrent use.
type Objects struct {
	client kubernetes.Interface
	mu     sync.Mutex
	api    map[string]string // by namespace: the events API to list, or "-" for none
}

// NewObjects reads through client.
func NewObjects(client kubernetes.Interface) *Objects {
	return &Objects{client: client, api: map[string]string{}}
}

// noAPI is the api entry of a namespace where neither events API may be listed.
const noAPI = "-"

// Of lists the Warning events on the object of kind and name in namespace ns (field selector
// on type, kind and name), newest first. An error says what could not be read, naming the
// permission when it was refused.
func (o *Objects) Of(ctx context.Context, ns, kind, name string) ([]Event, error) {
	group, err := o.apiOf(ctx, ns)
	if err != nil {
		return nil, err
	}
	var items []occurrence
	switch group {
	case noAPI:
		return nil, fmt.Errorf("needs RBAC verb list on events %s", where(ns))
	case eventsGroup:
		sel := fields.Set{"regarding.kind": kind, "regarding.name": name, "type": corev1.EventTypeWarning}.AsSelector().String()
		l, err := o.client.EventsV1().Events(ns).List(ctx, metav1.ListOptions{FieldSelector: sel, Limit: pageSize})
		if err != nil {
			return nil, fmt.Errorf("%s", why(err, ns))
		}
		items = occurrences(l.Items, fromV1)
	default:
		sel := fields.Set{"involvedObject.kind": kind, "involvedObject.name": name, "type": corev1.EventTypeWarning}.AsSelector().String()
		l, err := o.client.CoreV1().Events(ns).List(ctx, metav1.ListOptions{FieldSelector: sel, Limit: pageSize})
		if err != nil {
			return nil, fmt.Errorf("%s", why(err, ns))
		}
		items = occurrences(l.Items, fromCore)
	}
	var out []Event
	for _, e := range items {
		if e.typ != corev1.EventTypeWarning || e.regarding.Kind != kind || e.regarding.Name != name {
			continue
		}
		out = append(out, Event{Reason: e.reason, Message: short(e.message), Count: e.count, LastSeen: e.last})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].LastSeen.After(out[j].LastSeen) })
	return out, nil
}

// apiOf is the events API the user may list in ns, asked once.
func (o *Objects) apiOf(ctx context.Context, ns string) (string, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if g, ok := o.api[ns]; ok {
		return g, nil
	}
	group, ok, err := listable(ctx, o.client, ns)
	if err != nil {
		return "", fmt.Errorf("whether you may list events %s could not be checked: %v", where(ns), err)
	}
	if !ok {
		group = noAPI
	}
	o.api[ns] = group
	return group, nil
}
