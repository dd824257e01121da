package findings

import (
	"fmt"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/events"
)

// eventsOf are the Warning events that speak of the controller (or queue) name of t, newest
// first: evidence of which objects fail when their status says nothing, never a finding alone.
func eventsOf(t Target, name string) []events.Group {
	return t.Events.Of(t.ID, name)
}

// eventsNamed says which objects the Warning events name: "Warning events name ReplicaSet
// shop/web (FailedCreate x12)".
func eventsNamed(gs []events.Group) string {
	return namedIn("Warning events name ", eventsCited(gs))
}

// eventEvidence cites the newest Warning events, one line each: reason, object, count, when
// last seen and the message.
func eventEvidence(t Target, gs []events.Group) []Evidence {
	return citedEvidence(t, eventsCited(gs), "more Warning events",
		func(n int) string { return fmt.Sprintf("%d groups (section 6 lists them)", n) })
}

func eventsCited(gs []events.Group) []cited {
	cs := make([]cited, len(gs))
	for i, g := range gs {
		cs[i] = cited{Short: fmt.Sprintf("%s %s (%s x%d)", g.Kind, g.Object, g.Reason, g.Count),
			Value: fmt.Sprintf("%s %s x%d", g.Kind, g.Object, g.Count), Label: "Warning event " + g.Reason,
			Detail: g.Message, Last: g.LastSeen}
	}
	return cs
}
