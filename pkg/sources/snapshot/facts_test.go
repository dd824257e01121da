package snapshot

import (
	"context"
	"testing"
	"time"

	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

// allow answers the access reviews: the user may list events of the API group allowed.
func allow(c *fake.Clientset, allowed string) {
	c.PrependReactor("create", "selfsubjectaccessreviews", func(a k8stesting.Action) (bool, runtime.Object, error) {
		r := a.(k8stesting.CreateAction).GetObject().(*authorizationv1.SelfSubjectAccessReview)
		r.Status.Allowed = r.Spec.ResourceAttributes.Group == allowed
		return true, r, nil
	})
}

// Only the pods' recent Warning events are kept, the latest first; read from core/v1 where
// the user may list only those.
func TestRecentEvents(t *testing.T) {
	now := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	ev := func(name, pod, typ, reason string, ago time.Duration) *corev1.Event {
		return &corev1.Event{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: name}, Type: typ, Reason: reason, Count: 1,
			InvolvedObject: corev1.ObjectReference{Kind: "Pod", Name: pod}, LastTimestamp: metav1.Time{Time: now.Add(-ago)}}
	}
	client := fake.NewSimpleClientset(
		ev("a", "p", corev1.EventTypeWarning, "BackOff", 10*time.Minute),
		ev("b", "p", corev1.EventTypeWarning, "OOMKilling", time.Minute),
		ev("c", "p", corev1.EventTypeWarning, "Old", 3*time.Hour),
		ev("d", "p", corev1.EventTypeNormal, "Pulled", time.Minute),
		ev("e", "other", corev1.EventTypeWarning, "NotOurs", time.Minute))
	allow(client, "")
	// The fake client ignores field selectors: apply the involved object and type as the API
	// server does.
	client.PrependReactor("list", "events", func(a k8stesting.Action) (bool, runtime.Object, error) {
		sel := a.(k8stesting.ListAction).GetListRestrictions().Fields
		var out corev1.EventList
		for _, name := range []string{"a", "b", "c", "d", "e"} {
			e, _ := client.Tracker().Get(corev1.SchemeGroupVersion.WithResource("events"), "ops", name)
			ce := e.(*corev1.Event)
			if sel.Matches(fieldsOf(ce)) {
				out.Items = append(out.Items, *ce)
			}
		}
		return true, &out, nil
	})
	pods := map[string]*corev1.Pod{"ops/p": {ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "p"}}}
	evs, notes := RecentEvents(context.Background(), client, pods, now, time.Hour)
	if len(notes) > 0 || len(evs) != 2 || evs[0].Reason != "OOMKilling" || evs[1].Reason != "BackOff" {
		t.Errorf("events %+v, notes %v; want OOMKilling then BackOff", evs, notes)
	}
}

type eventFields map[string]string

func (f eventFields) Has(k string) bool   { _, ok := f[k]; return ok }
func (f eventFields) Get(k string) string { return f[k] }
func fieldsOf(e *corev1.Event) eventFields {
	return eventFields{"involvedObject.kind": e.InvolvedObject.Kind, "involvedObject.name": e.InvolvedObject.Name, "type": e.Type}
}

// Where the user may list events.k8s.io/v1, the pods' events are read there (series, note,
// regarding), as pkg/facts/events reads them; where neither API may be listed, a note says so.
func TestRecentEventsV1(t *testing.T) {
	now := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	ev := func(name, pod, reason string, ago time.Duration, count int32) *eventsv1.Event {
		return &eventsv1.Event{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: name}, Type: corev1.EventTypeWarning, Reason: reason, Note: reason + " note",
			Regarding: corev1.ObjectReference{Kind: "Pod", Name: pod}, EventTime: metav1.MicroTime{Time: now.Add(-ago)},
			Series: &eventsv1.EventSeries{Count: count, LastObservedTime: metav1.MicroTime{Time: now.Add(-ago / 2)}}}
	}
	core := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "core"}, Type: corev1.EventTypeWarning, Reason: "CoreOnly",
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Name: "p"}, LastTimestamp: metav1.Time{Time: now}}
	client := fake.NewClientset(core, ev("a", "p", "BackOff", 10*time.Minute, 7), ev("b", "other", "NotOurs", time.Minute, 1))
	allow(client, "events.k8s.io")
	pods := map[string]*corev1.Pod{"ops/p": {ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "p"}}}
	evs, notes := RecentEvents(context.Background(), client, pods, now, time.Hour)
	if len(notes) > 0 || len(evs) != 1 || evs[0].Reason != "BackOff" || evs[0].Message != "BackOff note" || evs[0].Count != 7 ||
		!evs[0].LastSeen.Equal(now.Add(-5*time.Minute)) {
		t.Errorf("events %+v, notes %v; want BackOff x7 of events.k8s.io/v1, last seen 5m ago", evs, notes)
	}
	none := fake.NewClientset(core)
	allow(none, "nothing")
	evs, notes = RecentEvents(context.Background(), none, pods, now, time.Hour)
	if len(evs) != 0 || len(notes) != 1 || notes[0] != "events of pod ops/p: needs RBAC verb list on events in namespace ops" {
		t.Errorf("forbidden: events %+v, notes %q", evs, notes)
	}
}
