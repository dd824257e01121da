package snapshot

import (
	"context"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/kubernetes"
)

// maxEventsPerPod bounds the Warning events kept of one pod, the latest first.
const maxEventsPerPod = 20

// RecentEvents are the Warning events of the pods whose last occurrence is within since of
// now, the latest first, at most 20 a pod. A pod whose events may not be listed is noted.
func RecentEvents(ctx context.Context, client kubernetes.Interface, pods map[string]*corev1.Pod, now time.Time, since time.Duration) ([]Event, []string) {
	keys := make([]string, 0, len(pods))
	for k := range pods {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []Event
	var notes []string
	for _, k := range keys {
		p := pods[k]
		sel := fields.Set{"involvedObject.kind": "Pod", "involvedObject.name": p.Name, "type": corev1.EventTypeWarning}.AsSelector().String()
		list, err := client.CoreV1().Events(p.Namespace).List(ctx, metav1.ListOptions{FieldSelector: sel})
		if err != nil {
			notes = append(notes, "events of pod "+k+": "+err.Error())
			continue
		}
		var evs []Event
		for _, e := range list.Items {
			last := lastSeen(e)
			if now.Sub(last) > since {
				continue
			}
			count := e.Count
			if e.Series != nil {
				count = e.Series.Count
			}
			evs = append(evs, Event{Namespace: p.Namespace, Pod: p.Name, Reason: e.Reason, Message: e.Message, Count: count, LastSeen: last})
		}
		sort.SliceStable(evs, func(i, j int) bool { return evs[i].LastSeen.After(evs[j].LastSeen) })
		out = append(out, evs[:min(len(evs), maxEventsPerPod)]...)
	}
	return out, notes
}

// lastSeen is when an event last happened, whichever of its times is set.
func lastSeen(e corev1.Event) time.Time {
	switch {
	case e.Series != nil && !e.Series.LastObservedTime.IsZero():
		return e.Series.LastObservedTime.Time
	case !e.LastTimestamp.IsZero():
		return e.LastTimestamp.Time
	case !e.EventTime.IsZero():
		return e.EventTime.Time
	}
	return e.FirstTimestamp.Time
}

// ServerVersion is the API server's version (GitVersion), or "" when it does not say.
func ServerVersion(client kubernetes.Interface) string {
	v, err := client.Discovery().ServerVersion()
	if err != nil {
		return ""
	}
	return v.GitVersion
}
