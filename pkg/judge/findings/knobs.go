package findings

import (
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
)

// knobPlaceholder stands for the knob in a catalog entry's "knob" recommendation.
const knobPlaceholder = "{knob}"

// withKnobs names, in the findings about t, the knob of the well-known controller t is
// (pkg/facts/knobs): the flag that sizes the finding's queue or the client, with its default and the
// value the container's arguments set. A controller knobs does not recognise, and a check it has
// no knob for, keep the catalog's recommendation for the kind of controller.
func withKnobs(t Target, fs []Finding) []Finding {
	m := recognise(t)
	if m == nil {
		return fs
	}
	for i := range fs {
		tpl := catalog()[fs[i].Check].Recommendation["knob"]
		a, ok := m.Advise(fs[i].Check, fs[i].Queue)
		if !ok || tpl == "" {
			continue
		}
		fs[i].Knob = &a
		fs[i].Recommendation = strings.ReplaceAll(tpl, knobPlaceholder, a.String())
		if a.Note != "" {
			fs[i].Recommendation += " " + a.Note
		}
	}
	return fs
}

// recognise is the well-known controller t is, nil when pkg/facts/knobs knows none.
func recognise(t Target) *knobs.Match {
	if m, ok := knobs.Recognise(seen(t)); ok {
		return &m
	}
	return nil
}

// seen is what t shows of itself for recognition and its knobs: its metrics container's image
// and arguments, the metric families on its page, its queue and controller names, and the
// flags its /flagz gave.
func seen(t Target) knobs.Seen {
	var s knobs.Seen
	if t.Pod != nil {
		s.Image, s.Args, s.Env = t.Pod.Image, t.Pod.Args, t.Pod.Env
	}
	if t.Flagz != nil {
		s.Flagz = t.Flagz.Values
	}
	if t.Cur != nil {
		s.Families = t.Cur.Families
		for name := range t.Cur.Queues {
			s.Queues = append(s.Queues, name)
		}
		for name := range t.Cur.Controllers {
			s.Queues = append(s.Queues, name)
		}
	}
	return s
}
