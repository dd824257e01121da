package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/events"
)

// maxEventRows bounds the Warning events the human formats list; json and yaml hold every
// group read.
const maxEventRows = 15

// warningEventsSection is the table under section 6 of the Warning events that speak of the
// controllers, newest first, by reason and object, with what kept some from being read.
func warningEventsSection(v *events.View, now time.Time) section {
	s := section{Title: "Warning events by reason and object",
		Header: []string{"KIND", "OBJECT", "REASON", "COUNT", "LAST SEEN", "CONTROLLERS", "MESSAGE"},
		Drop:   []string{"CONTROLLERS", "LAST SEEN"}, Cut: "MESSAGE"}
	for _, g := range v.Groups {
		if len(s.Rows) == maxEventRows {
			break
		}
		last := "-"
		if !g.LastSeen.IsZero() {
			last = age(now.Sub(g.LastSeen).Seconds()) + " ago"
		}
		s.Rows = append(s.Rows, []string{g.Kind, g.Object, g.Reason, fmt.Sprint(g.Count), last, strings.Join(g.Controllers, ", "),
			dash(shorten(g.Message, 160))})
	}
	var notes []string
	switch {
	case len(v.Groups) > maxEventRows:
		notes = append(notes, fmt.Sprintf("The newest %d of %d groups shown (-o json lists all).", maxEventRows, len(v.Groups)))
	case len(v.Groups) == 0 && len(v.Namespaces) > 0:
		notes = append(notes, fmt.Sprintf("None of the %d Warning events read %s speaks of a controller read.", v.Read, eventsWhere(v.Namespaces)))
	}
	if !v.Since.IsZero() && len(v.Namespaces) > 0 {
		s.Define = fmt.Sprintf("Read %s, last seen since %s.", eventsWhere(v.Namespaces), v.Since.UTC().Format(time.RFC3339))
	}
	for _, n := range v.Notes {
		notes = append(notes, upperFirst(n)+".")
	}
	s.Note = strings.Join(notes, " ")
	if len(v.Groups) == 0 && len(v.Notes) == 0 && len(v.Namespaces) > 0 {
		s.Quiet = "no Warning event speaks of a controller read"
	}
	return s
}

// eventsWhere names the namespaces read: "in all namespaces", "in namespace ops".
func eventsWhere(namespaces []string) string {
	for _, ns := range namespaces {
		if ns == "" {
			return "in all namespaces"
		}
	}
	if len(namespaces) == 1 {
		return "in namespace " + namespaces[0]
	}
	return "in namespaces " + strings.Join(namespaces, ", ")
}
