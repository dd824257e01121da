package render

import (
	"fmt"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// slisSection is every queue's service levels: its waits over the window against the
// queue-wait objective, the verdict, and the headroom before it breaks. Queues whose waits
// were not judged for want of waits are counted in the note, not listed.
func slisSection(r view.Report) section {
	objective, specObjective := "1s", "30s"
	if len(r.SLIs) > 0 {
		objective = Seconds(&r.SLIs[0].QueueWait.ObjectiveSeconds)
	}
	for _, x := range r.SLIs {
		if x.Spec != nil {
			specObjective = Seconds(&x.Spec.ObjectiveSeconds)
			break
		}
	}
	s := section{Title: "Service levels (p99: queue wait <= " + objective + ", spec to observed <= " + specObjective + ")",
		Header: []string{"TARGET", "QUEUE", "WAITS", "OVER " + objective, "VERDICT", "HEADROOM", "CHANGES", "SPEC p99", "OVER " + specObjective, "VERDICT", "WHY"},
		Drop:   []string{"WHY", "OVER " + specObjective, "VERDICT", "SPEC p99", "CHANGES", "HEADROOM"}}
	quiet := 0
	var said []string // the codes of the findings that say a row
	for _, x := range r.SLIs {
		q := x.QueueWait
		if q.Verdict == "not-judged" && (q.Samples == nil || *q.Samples == 0) && !specRead(x.Spec) {
			quiet++
			continue
		}
		if len(s.Rows) == maxRows {
			continue
		}
		var whys []string
		if q.Why != "" {
			whys = append(whys, q.Why)
		}
		spec := []string{"-", "-", "-", "-"}
		if x.Spec != nil {
			sp := x.Spec
			spec = []string{Count(sp.Samples), Seconds(sp.P99Seconds), overCell(sp.Objective), sp.Verdict}
			if sp.Why != "" && sp.Kind != "" {
				whys = append(whys, "spec: "+sp.Why)
			}
		}
		row := append([]string{x.Target, x.Queue, Count(q.Samples), overCell(q), q.Verdict, sliHeadroom(x)}, spec...)
		s.Rows = append(s.Rows, append(row, dash(shorten(strings.Join(whys, "; "), 140))))
		code := saidBy(r, x.Target, x.Queue, "queue-wait-slo")
		if code != "" {
			said = append(said, code)
		}
		breaks := q.Verdict == "breaks" && code == "" ||
			x.Spec != nil && x.Spec.Verdict == "breaks" && !findingOn(r, x.Target, "spec-latency-slo")
		s.Notable = append(s.Notable, breaks)
	}
	switch {
	case r.Window == view.Lifetime:
		s.Note = "Not judged: one sample holds the counts since the process started, its start-up included (read twice, --interval)."
	case len(r.SLIs) == 0:
		s.Note = "No queue was read."
	default:
		s.Quiet = fmt.Sprintf("%s judged, none breaks its objectives", printable.Plural(len(s.Rows), "queue"))
		if len(said) > 0 {
			s.Quiet = saidQuiet(said, "breaking the queue wait", len(s.Rows)-len(said), "judged, none breaks")
		}
		s.Define = fmt.Sprintf("Breaks: more than 1%% of the window's waits surely over %s, at least 3 and beyond chance; holds: 100 waits or more, at most 1%% possibly over (--slo queue-wait-p99). The spec changes of the controller's objects (creations, new generations, timed until status.observedGeneration reaches them; those in flight at the window's start or end count once they had waited past the objective, the others are undecided) are judged alike against %s (--slo spec-p99).", objective, specObjective)
		if quiet > 0 {
			s.Define = fmt.Sprintf("%s without waits in the window %s not listed. ", printable.Plural(quiet, "queue"), printable.PluralVerb(quiet, "are")) + s.Define
		}
	}
	return s
}

// overCell is the waits over the objective and their share: "12 (1.2%)", "3-50" when the
// buckets bracket it.
func overCell(q view.Objective) string {
	if q.Over == nil {
		return "-"
	}
	n := Count(q.Over)
	if q.OverAtMost != nil && *q.OverAtMost != *q.Over {
		n += "-" + Count(q.OverAtMost)
	}
	if q.OverShare != nil {
		n += fmt.Sprintf(" (%.1f%%)", 100**q.OverShare)
	}
	return n
}

// sliHeadroom is the capacity section's headroom cell for the queue, "-" when not modelled.
func sliHeadroom(x view.SLI) string {
	if x.Headroom == nil {
		return "-"
	}
	h := x.Headroom
	if h.Over {
		return "already over"
	}
	return headroomCell(view.Capacity{Headroom: h.Ratio, MaxOfferedPerSecond: h.MaxOfferedPerSecond, OfferedPerSecond: h.OfferedPerSecond})
}

// specRead says whether the spec latency of a queue's kind was measured: its objects were
// watched (a kind is known) and changed, or are judged.
func specRead(sp *view.SpecObjective) bool {
	return sp != nil && sp.Kind != "" && (sp.Samples != nil && *sp.Samples > 0 || sp.Verdict != "not-judged")
}
