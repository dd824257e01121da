package render

import (
	"fmt"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
)

// specLatencySection is section 6's "Spec to observed" table: per kind watched over the window,
// its spec changes, how many the controller acted on and how fast, how many it had not when
// the window ended, and how long the objects took to become Ready after them. ok is false
// when no kind was watched.
func specLatencySection(v *objects.View) (section, bool) {
	changes := 0
	s := section{Title: "Spec to observed",
		Header: []string{"KIND", "CHANGES", "OBSERVED", "P50", "P99", "MAX", "PENDING", "READY p50", "READY p99", "NOTE"},
		Drop:   []string{"READY p50", "P50", "MAX", "OBSERVED"}, Cut: "NOTE"}
	for _, k := range v.Kinds {
		sl := k.SpecLatency
		if sl == nil || k.Error != "" {
			continue
		}
		if sl.NoStatusSubresource {
			s.Rows = append(s.Rows, []string{k.Kind.Kind, "-", "-", "-", "-", "-", "-", "-", "-",
				"no /status subresource: the controller's status writes bump metadata.generation, so the latency is not measurable"})
			s.Notable = append(s.Notable, true)
			continue
		}
		ready := []string{"-", "-"}
		if r := k.TimeToReady; r != nil {
			ready = []string{Seconds(r.P50Seconds), Seconds(r.P99Seconds)}
		}
		notes := specNotes(k)
		s.Rows = append(s.Rows, append(append([]string{k.Kind.Kind, fmt.Sprint(sl.Changes), fmt.Sprint(sl.Observed),
			Seconds(sl.P50Seconds), Seconds(sl.P99Seconds), Seconds(sl.MaxSeconds), fmt.Sprint(sl.Pending)}, ready...),
			dash(strings.Join(notes, "; "))))
		// How fast is the spec objective's to judge; changes still pending, and a watch
		// that stopped, are worth a look.
		s.Notable = append(s.Notable, sl.Pending > 0 || sl.Error != "")
		changes += sl.Changes
	}
	if len(s.Rows) == 0 {
		return s, false
	}
	s.Quiet = "spec to observed: " + printable.Plural(changes, "change") + " in the window, none pending"
	if changes == 0 {
		s.Quiet = "no spec change in the window"
	}
	s.Define = "From each change of the window (a creation, a new metadata.generation) to the first watch event whose " +
		"status.observedGeneration, or a condition's own, reaches it (OBSERVED, P50, P99, MAX; PENDING: not reached when " +
		"the window ended), and to the first Ready=True for it (READY p50, p99)."
	return s, true
}

// specNotes say what the kind's figures leave out: why a latency cannot be measured, the
// objects behind longest, and the changes not timed.
func specNotes(k objects.Summary) []string {
	sl := k.SpecLatency
	var notes []string
	if sl.Error != "" {
		notes = append(notes, "watch stopped: "+sl.Error)
	}
	if sl.NoObservedGeneration {
		notes = append(notes, "no observedGeneration: when the controller acts is not measurable")
	}
	if sl.ObservedSeeded > 0 {
		notes = append(notes, fmt.Sprintf("%d behind at the start caught up", sl.ObservedSeeded))
	}
	if len(sl.PendingObjects) > 0 {
		p := sl.PendingObjects[0]
		at := ""
		if p.BehindAtLeast {
			at = "at least "
		}
		notes = append(notes, fmt.Sprintf("behind longest %s, %s%s", p.Object, at, age(p.BehindSeconds)))
	}
	if r := k.TimeToReady; r != nil {
		if r.NoReadyCondition {
			notes = append(notes, "no Ready condition")
		} else if r.Pending > 0 {
			notes = append(notes, fmt.Sprintf("%d not Ready yet", r.Pending))
		}
		if r.DeletedBeforeReady > 0 {
			notes = append(notes, fmt.Sprintf("%d deleted before Ready", r.DeletedBeforeReady))
		}
	}
	if sl.Capped || k.TimeToReady != nil && k.TimeToReady.Capped {
		notes = append(notes, "capped: more objects changed than were followed")
	}
	return notes
}
