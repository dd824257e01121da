package events

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// eventV1 is an events.k8s.io/v1 Warning on a ReplicaSet as client-go's new recorder writes
// it: reportingController, note, eventTime, and a series once it repeats.
func eventV1(ns, name, reason, reporter, object string, first time.Time, series *eventsv1.EventSeries, note string) *eventsv1.Event {
	return &eventsv1.Event{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, CreationTimestamp: metav1.NewTime(first)},
		EventTime: metav1.NewMicroTime(first), Series: series, ReportingController: reporter, ReportingInstance: reporter + "-1",
		Action: "Create", Reason: reason, Type: corev1.EventTypeWarning, Note: note,
		Regarding: corev1.ObjectReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Namespace: ns, Name: object}}
}

// Where the user may list events.k8s.io/v1 events they are read there: a series' count and
// last observed time, reportingController and note make the group; a Normal one, one older
// than the window and one of no controller are left out. The same cluster's core/v1 events
// are then not read (they are the same events).
func TestReadPrefersEventsV1(t *testing.T) {
	since := now.Add(-time.Minute)
	c := clientOf(func(string, string) bool { return true },
		eventV1("shop", "a", "FailedCreate", "replicaset-controller", "web", now.Add(-time.Hour),
			&eventsv1.EventSeries{Count: 7, LastObservedTime: metav1.NewMicroTime(now.Add(-20 * time.Second))}, `pods "web-x" is forbidden: exceeded quota: no-pods`),
		eventV1("shop", "b", "FailedCreate", "replicaset-controller", "old", now.Add(-time.Hour), nil, "old"),
		eventV1("shop", "c", "Oops", "someone", "api", now.Add(-5*time.Second), nil, "oops"),
		&eventsv1.Event{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "d", CreationTimestamp: metav1.NewTime(now)},
			Type: corev1.EventTypeNormal, Reason: "SuccessfulCreate", ReportingController: "replicaset-controller",
			Regarding: corev1.ObjectReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Namespace: "shop", Name: "web"}},
		&eventsv1.Event{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "e", CreationTimestamp: metav1.NewTime(now)},
			Type: corev1.EventTypeWarning, Reason: "BackOff", DeprecatedSource: corev1.EventSource{Component: "kubelet"},
			Regarding: corev1.ObjectReference{APIVersion: "v1", Kind: "Pod", Namespace: "shop", Name: "web-z"}},
		// Recorded through core/v1 by an older recorder: the deprecated fields tell its time and count.
		&eventsv1.Event{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "f", CreationTimestamp: metav1.NewTime(now.Add(-time.Hour))},
			Type: corev1.EventTypeWarning, Reason: "FailedDelete", Note: "m", DeprecatedSource: corev1.EventSource{Component: "replicaset-controller"},
			DeprecatedCount: 3, DeprecatedLastTimestamp: metav1.NewTime(now.Add(-30 * time.Second)),
			Regarding: corev1.ObjectReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Namespace: "shop", Name: "db"}},
		event("shop", "core", "Warning", "CoreOnly", "replicaset-controller", "apps/v1", "ReplicaSet", "web", 1, now, "core/v1 only"))
	v := Read(context.Background(), c, Request{Namespace: "kube-system", ClusterWide: []string{"kcm replicaset"}, Since: since,
		Controllers: []Controller{replicaset}})
	if len(v.Notes) != 0 || len(v.Namespaces) != 1 || v.Namespaces[0] != "" || v.Read != 6 {
		t.Fatalf("namespaces %q, notes %q, read %d: want all namespaces, no note, the 6 events.k8s.io/v1 events", v.Namespaces, v.Notes, v.Read)
	}
	if len(v.Groups) != 3 {
		t.Fatalf("groups %+v, want Oops on shop/api, FailedCreate on shop/web, FailedDelete on shop/db", v.Groups)
	}
	if g := v.Groups[0]; g.Reason != "Oops" || g.Object != "shop/api" || g.Reporter != "someone" || g.Count != 1 {
		t.Errorf("newest first: %+v", g)
	}
	if g := v.Groups[1]; g.Reason != "FailedCreate" || g.Kind != "ReplicaSet" || g.Object != "shop/web" || g.Count != 7 ||
		!g.LastSeen.Equal(now.Add(-20*time.Second)) || g.Message != `pods "web-x" is forbidden: exceeded quota: no-pods` || g.Reporter != "replicaset-controller" {
		t.Errorf("the series: %+v", g)
	}
	if g := v.Groups[2]; g.Reason != "FailedDelete" || g.Object != "shop/db" || g.Count != 3 || !g.LastSeen.Equal(now.Add(-30*time.Second)) ||
		g.Reporter != "replicaset-controller" {
		t.Errorf("the event an older recorder wrote: %+v", g)
	}
}

// A user who may list core/v1 events only, in one namespace, reads them there; one who may
// list events.k8s.io/v1 only reads those: either is enough, and the note names no other.
func TestReadFallsBackToCoreEvents(t *testing.T) {
	req := Request{Namespace: "ops", Since: now.Add(-time.Minute), Controllers: []Controller{replicaset}}
	core := event("ops", "a", "Warning", "FailedCreate", "replicaset-controller", "apps/v1", "ReplicaSet", "web", 2, now, "core")
	v1 := eventV1("ops", "b", "FailedCreate", "replicaset-controller", "web", now, nil, "v1")
	v := Read(context.Background(), clientOf(func(group, ns string) bool { return group == "" && ns == "ops" }, core, v1), req)
	if len(v.Notes) != 0 || len(v.Groups) != 1 || v.Groups[0].Message != "core" || v.Groups[0].Count != 2 {
		t.Errorf("core/v1 only: %+v", v)
	}
	v = Read(context.Background(), clientOf(func(group, ns string) bool { return group == eventsGroup && ns == "ops" }, core, v1), req)
	if len(v.Notes) != 0 || len(v.Groups) != 1 || v.Groups[0].Message != "v1" || v.Groups[0].Count != 1 {
		t.Errorf("events.k8s.io/v1 only: %+v", v)
	}
}
