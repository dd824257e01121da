package objects

import (
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// condition is one entry of status.conditions.
type condition struct {
	Type, Status, Reason, Message string
	// Since is when it last changed; zero when not given.
	Since time.Time
}

func conditions(u *unstructured.Unstructured) map[string]condition {
	raw, found, err := unstructured.NestedSlice(u.Object, "status", "conditions")
	if err != nil || !found {
		return nil
	}
	out := make(map[string]condition, len(raw))
	for _, r := range raw {
		m, ok := r.(map[string]any)
		if !ok {
			continue
		}
		c := condition{Type: str(m["type"]), Status: str(m["status"]), Reason: str(m["reason"]), Message: str(m["message"])}
		if t, err := time.Parse(time.RFC3339, str(m["lastTransitionTime"])); err == nil {
			c.Since = t
		}
		if c.Type != "" {
			out[c.Type] = c
		}
	}
	return out
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// failed says whether the object's own status says it cannot be made ready, by the
// conventions most controllers follow (kstatus): Stalled=True; Ready=False while it is not
// Reconciling=True (a controller still at work says so); and a Deployment whose rollout
// exceeded its progress deadline. The condition returned carries the reason and message.
func failed(u *unstructured.Unstructured) (condition, bool) {
	cs := conditions(u)
	if c, ok := cs["Stalled"]; ok && c.Status == "True" {
		return c, true
	}
	if c, ok := cs["Ready"]; ok && c.Status == "False" {
		if r, ok := cs["Reconciling"]; !ok || r.Status != "True" {
			return c, true
		}
	}
	if c, ok := cs["Progressing"]; ok && c.Status == "False" && c.Reason == "ProgressDeadlineExceeded" {
		return c, true
	}
	return condition{}, false
}

// behindSpec says whether the object's status.observedGeneration trails its generation: its
// controller has not yet acted on the latest spec. Objects without observedGeneration do not
// say.
func behindSpec(u *unstructured.Unstructured) bool {
	observed, found, err := unstructured.NestedInt64(u.Object, "status", "observedGeneration")
	return err == nil && found && observed < u.GetGeneration()
}
