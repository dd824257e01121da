package findings

import (
	"fmt"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/events"
)

// maxEventEvidence bounds the Warning events a finding cites.
const maxEventEvidence = 3

// eventsOf are the Warning events that speak of the controller (or queue) name of t, newest
// first: evidence of which objects fail when their status says nothing, never a finding alone.
func eventsOf(t Target, name string) []events.Group {
	return t.Events.Of(t.ID, name)
}

// eventsNamed says which objects the Warning events name: "Warning events name ReplicaSet
// shop/web (FailedCreate x12)".
func eventsNamed(gs []events.Group) string {
	var parts []string
	for i, g := range gs {
		if i == maxEventEvidence {
			parts = append(parts, fmt.Sprintf("%d more", len(gs)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("%s %s (%s x%d)", g.Kind, g.Object, g.Reason, g.Count))
	}
	return "Warning events name " + strings.Join(parts, ", ")
}

// eventEvidence cites the newest Warning events, one line each: reason, object, count, when
// last seen and the message.
func eventEvidence(t Target, gs []events.Group) []Evidence {
	var evs []Evidence
	for i, g := range gs {
		if i == maxEventEvidence {
			evs = append(evs, Evidence{Name: "more Warning events", Value: fmt.Sprintf("%d groups (section 6 lists them)", len(gs)-i)})
			break
		}
		v := fmt.Sprintf("%s %s x%d", g.Kind, g.Object, g.Count)
		if t.Cur != nil && !t.Cur.Time.IsZero() && !g.LastSeen.IsZero() {
			v += ", last " + format(max(0, t.Cur.Time.Sub(g.LastSeen).Seconds()), "s") + " before the last sample"
		}
		if g.Message != "" {
			v += fmt.Sprintf(`: "%s"`, g.Message)
		}
		evs = append(evs, Evidence{Name: "Warning event " + g.Reason, Value: v})
	}
	return evs
}
