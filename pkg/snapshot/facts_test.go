package snapshot

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

// Only the pods' recent Warning events are kept, the latest first.
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
