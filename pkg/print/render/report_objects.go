package render

import (
	"fmt"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// objectsSection is section 6: per kind the controllers reconcile, how many objects failed,
// trail their spec or wait on finalizers, the failed ones by reason, how fast their spec changes
// were acted on, and the Warning events that speak of the controllers.
func objectsSection(r view.Report) section {
	s := section{Title: "6. Objects the controllers reconcile",
		Header: []string{"KIND", "NAMESPACE", "CONTROLLERS", "OBJECTS", "FAILED", "BEHIND SPEC", "DELETING", "NOTE"},
		Drop:   []string{"CONTROLLERS", "DELETING", "NAMESPACE"}, Cut: "NOTE"}
	v := r.Objects
	if v == nil && r.ClusterAbsent != "" {
		s.Note = "Absent: " + r.ClusterAbsent + "."
		return s
	}
	if v == nil {
		s.Note = "Not read: the targets were read directly (--url, --from-file) or from a Prometheus server (--prometheus), so there is no cluster to list objects in."
		return s
	}
	reasons := section{Title: "Failed objects by reason",
		Header: []string{"KIND", "CONDITION", "REASON", "OBJECTS", "OLDEST", "EXAMPLES", "MESSAGE"},
		Drop:   []string{"OLDEST", "EXAMPLES"}, Cut: "MESSAGE"}
	total := 0
	for _, k := range v.Kinds {
		ns := k.Namespace
		switch {
		case !k.Kind.Namespaced:
			ns = "-"
		case len(k.Namespaces) > 3:
			ns = fmt.Sprintf("(%d namespaces)", len(k.Namespaces))
		case len(k.Namespaces) > 0:
			ns = strings.Join(k.Namespaces, ",")
		case ns == "":
			ns = "(all)"
		}
		var notes []string
		if k.Error != "" {
			notes = append(notes, k.Error)
		} else {
			if len(k.Deletions) > 0 {
				d := k.Deletions[0]
				notes = append(notes, fmt.Sprintf("oldest deletion %s, %s ago, waits on %s", d.Object, age(d.AgeSeconds), strings.Join(d.Finalizers, ", ")))
			}
			if k.Changes != nil {
				notes = append(notes, changesNote(*k.Changes))
			}
		}
		note := strings.Join(notes, "; ")
		counts := []string{fmt.Sprint(k.Total), fmt.Sprint(k.Failed), fmt.Sprint(k.BehindSpec), fmt.Sprint(k.Deleting)}
		if k.Error != "" {
			counts = []string{"-", "-", "-", "-"}
		}
		s.Rows = append(s.Rows, append(append([]string{k.Kind.GroupResource(), ns, strings.Join(k.Controllers, ", ")}, counts...), dash(note)))
		s.Notable = append(s.Notable, k.Error != "" || k.Failed > 0 || k.BehindSpec > 0 || k.Deleting > 0)
		total += k.Total
		for _, re := range k.Reasons {
			oldest := "-"
			if re.OldestSeconds > 0 {
				oldest = age(re.OldestSeconds)
			}
			reasons.Rows = append(reasons.Rows, []string{k.Kind.Kind, re.Condition, re.Reason, fmt.Sprint(re.Count), oldest,
				strings.Join(re.Objects, ", "), dash(shorten(re.Message, 80))})
		}
		if k.FailedOtherReasons > 0 {
			reasons.Rows = append(reasons.Rows, []string{k.Kind.Kind, "-", "(other reasons)", fmt.Sprint(k.FailedOtherReasons), "-", "-", "-"})
		}
	}
	var notes []string
	if len(v.Kinds) == 0 {
		notes = append(notes, "No controller read names a kind the API server serves: name one with --controller-kind NAME=GROUP/KIND.")
	}
	for _, n := range v.Notes {
		notes = append(notes, upperFirst(n)+".")
	}
	s.Note = strings.Join(notes, " ")
	if len(reasons.Rows) > 0 {
		s.Sub = append(s.Sub, reasons)
	}
	if sl, ok := specLatencySection(v); ok {
		s.Sub = append(s.Sub, sl)
	}
	if r.WarningEvents != nil {
		s.Sub = append(s.Sub, warningEventsSection(r.WarningEvents, r.GeneratedAt))
	}
	if s.Note == "" && len(v.Kinds) > 0 {
		quiet := []string{fmt.Sprintf("%s of %s, none failed, behind its spec or deleting",
			printable.Plural(total, "object"), printable.Plural(len(v.Kinds), "kind"))}
		for _, sub := range s.Sub {
			quiet = append(quiet, sub.Quiet)
		}
		s.Quiet = strings.Join(quiet, "; ")
	}
	return s
}

// changesNote says how often the kind's objects changed while the window was read (the
// saturated queues' load), or why that was not counted.
func changesNote(c objects.Changes) string {
	if c.Error != "" {
		return "changes not counted: " + c.Error
	}
	return fmt.Sprintf("%d changes in %s (%.3g/s)", c.Count, age(c.Seconds), c.PerSecond())
}
