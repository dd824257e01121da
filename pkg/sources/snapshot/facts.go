package snapshot

import (
	"context"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/events"
)

// maxEventsPerPod bounds the Warning events kept of one pod, the latest first.
const maxEventsPerPod = 20

// RecentEvents are the Warning events of the pods whose last occurrence is within since of
// now, the latest first, at most 20 a pod, read as pkg/facts/events reads them (events.k8s.io/v1
// where the user may list those, else core/v1). A pod whose events may not be listed is noted.
func RecentEvents(ctx context.Context, client kubernetes.Interface, pods map[string]*corev1.Pod, now time.Time, since time.Duration) ([]Event, []string) {
	keys := make([]string, 0, len(pods))
	for k := range pods {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	reader := events.NewObjects(client)
	var out []Event
	var notes []string
	for _, k := range keys {
		p := pods[k]
		list, err := reader.Of(ctx, p.Namespace, "Pod", p.Name)
		if err != nil {
			notes = append(notes, "events of pod "+k+": "+err.Error())
			continue
		}
		var evs []Event
		for _, e := range list {
			if now.Sub(e.LastSeen) > since {
				continue
			}
			evs = append(evs, Event{Namespace: p.Namespace, Pod: p.Name, Reason: e.Reason, Message: e.Message, Count: e.Count, LastSeen: e.LastSeen})
		}
		out = append(out, evs[:min(len(evs), maxEventsPerPod)]...)
	}
	return out, notes
}

// ServerVersion is the API server's version (GitVersion), or "" when it does not say.
func ServerVersion(client kubernetes.Interface) string {
	v, err := client.Discovery().ServerVersion()
	if err != nil {
		return ""
	}
	return v.GitVersion
}
