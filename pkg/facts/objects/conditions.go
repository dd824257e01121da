package objects

import (
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// condition is one entry of status.conditions.
type condition struct {
	Type, Status, Reason, Message string
	// Since is when it last changed; zero when not given.
	Since time.Time
	// ObservedGeneration is the generation the condition speaks of; 0 when not given.
	ObservedGeneration int64
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
		c := condition{Type: str(m["type"]), Status: str(m["status"]), Reason: str(m["reason"]), Message: str(m["message"]),
			ObservedGeneration: integer(m["observedGeneration"])}
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

// integer reads a JSON number as unstructured holds it (int64, or float64 from some decoders).
func integer(v any) int64 {
	switch n := v.(type) {
	case int64:
		return n
	case int:
		return int64(n)
	case float64:
		return int64(n)
	}
	return 0
}

// spec says which spec a condition speaks of, by its own observedGeneration: the current one
// (observedGeneration equals the object's generation), an older one, or unknown (the
// condition does not say, or the object keeps no generation).
type spec int

const (
	specUnknown spec = iota
	specCurrent
	specOlder
)

func (c condition) speaksOf(u *unstructured.Unstructured) spec {
	gen := u.GetGeneration()
	switch {
	case c.ObservedGeneration <= 0 || gen <= 0:
		return specUnknown
	case c.ObservedGeneration >= gen:
		return specCurrent
	}
	return specOlder
}

// failed says whether the object's own status says it cannot be made ready, by the
// conventions most controllers follow (kstatus and the workload APIs):
//   - Stalled=True, Degraded=True, ReplicaFailure=True;
//   - a condition of abnormal-true polarity named for a failure (FetchFailed, BuildFailed,
//     StorageOperationFailed, a Job's Failed) that is True: Flux keeps it while it retries,
//     when Ready may be Unknown for the length of a reconcile, so it is read before Ready;
//   - Ready=False while it is not Reconciling=True (a controller still at work says so), or
//     whose own observedGeneration is the object's generation: a failure of the current spec
//     even when the controller retries (Reconciling=True) and leaves status.observedGeneration
//     behind, as Flux does;
//   - Progressing=False with reason ProgressDeadlineExceeded (a rollout past its deadline);
//   - Available=False while it is not Progressing=True (a rollout still in time says so).
//
// A condition whose own observedGeneration is older than the object's generation speaks of
// an older spec and does not count. The condition returned carries the reason and message.
func failed(u *unstructured.Unstructured) (condition, bool) {
	cs := conditions(u)
	is := func(typ, status string) (condition, bool) {
		c, ok := cs[typ]
		return c, ok && c.Status == status && c.speaksOf(u) != specOlder
	}
	for _, typ := range []string{"Stalled", "Degraded", "ReplicaFailure"} {
		if c, ok := is(typ, "True"); ok {
			return c, true
		}
	}
	if c, ok := failedTrue(cs, u); ok {
		return c, true
	}
	if c, ok := is("Ready", "False"); ok {
		if r, ok := cs["Reconciling"]; !ok || r.Status != "True" || c.speaksOf(u) == specCurrent {
			return c, true
		}
	}
	if c, ok := is("Progressing", "False"); ok && c.Reason == "ProgressDeadlineExceeded" {
		return c, true
	}
	if c, ok := is("Available", "False"); ok {
		if p, ok := cs["Progressing"]; !ok || p.Status != "True" {
			return c, true
		}
	}
	return condition{}, false
}

// failedTrue is the first, by name, of the conditions named for a failure ("...Failed") that
// are True and do not speak of an older spec.
func failedTrue(cs map[string]condition, u *unstructured.Unstructured) (condition, bool) {
	var names []string
	for typ, c := range cs {
		if strings.HasSuffix(typ, "Failed") && c.Status == "True" && c.speaksOf(u) != specOlder {
			names = append(names, typ)
		}
	}
	if len(names) == 0 {
		return condition{}, false
	}
	slices.Sort(names)
	return cs[names[0]], true
}

// observedOf is the newest generation the controller says it has acted on: the greater of
// status.observedGeneration and any condition's own observedGeneration (kstatus and Gateway API
// kinds stamp each condition, Flux leaves status.observedGeneration behind while a generation
// fails). found says whether the object carries either.
func observedOf(u *unstructured.Unstructured) (int64, bool) {
	var observed int64
	found := false
	if st, ok := u.Object["status"].(map[string]any); ok {
		if v, ok := st["observedGeneration"]; ok {
			observed, found = integer(v), true
		}
	}
	for _, c := range conditions(u) {
		if c.ObservedGeneration > 0 {
			found = true
			observed = max(observed, c.ObservedGeneration)
		}
	}
	return observed, found
}

// specOf says whether the controller has acted on the object's latest spec: specCurrent when
// what it observed (observedOf) reaches the generation, specOlder when it trails it, and
// specUnknown when the object keeps no generation or says nothing of what was observed. The
// objects section (behind spec) and the spec latency read it alike.
func specOf(u *unstructured.Unstructured) spec {
	gen := u.GetGeneration()
	observed, found := observedOf(u)
	switch {
	case !found || gen <= 0:
		return specUnknown
	case observed >= gen:
		return specCurrent
	}
	return specOlder
}

// behindSpec says whether the controller has not yet acted on the object's latest spec (specOf):
// its status.observedGeneration trails its generation, and no condition of the current
// generation says otherwise (Flux leaves status.observedGeneration behind while a generation
// fails, and stamps the generation on each condition). Objects without observedGeneration do
// not say.
func behindSpec(u *unstructured.Unstructured) bool {
	return specOf(u) == specOlder
}
