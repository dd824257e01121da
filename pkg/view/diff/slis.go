package diff

import (
	"sort"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/objects"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// sliFigureNames are the figures compared per queue's service levels, in the order shown.
var sliFigureNames = []string{"waits", "queue wait p99", "share over objective", "spec changes", "spec p99"}

// kindFigureNames are the figures compared per kind, in the order shown.
var kindFigureNames = []string{"spec changes", "spec p50", "spec p99", "spec pending", "ready p50", "ready p99", "ready pending"}

// verdictFigures are the figures (by index in sliFigureNames) whose change alone shows a
// queue's row: the counts of samples change with any load and say nothing of the verdict.
var verdictFigures = map[int]bool{1: true, 2: true, 4: true}

// sliChanges compares the service levels of every queue (report json `slis`) by controller
// (ids: each target's, see identities) and queue. A queue is shown when a verdict changed or a
// figure behind one did (to three significant digits); of several replicas of one controller
// the one with the most waits stands for it. When one side has queues but no service levels
// (a report made before them), nothing is compared and the note says which side.
func sliChanges(before, after view.Report, ib, ia map[string]string) ([]view.SLIChange, string) {
	for _, side := range []struct {
		name string
		r    view.Report
	}{{"BEFORE", before}, {"AFTER", after}} {
		if len(side.r.SLIs) == 0 && len(view.FromSections(side.r.Backlog, side.r.Events)) > 0 {
			return []view.SLIChange{}, side.name + " has queues but no service levels (a report made by an older version): not compared"
		}
	}
	b, a := slisOf(before, ib), slisOf(after, ia)
	keys := map[queueKey]bool{}
	for k := range b {
		keys[k] = true
	}
	for k := range a {
		keys[k] = true
	}
	out := []view.SLIChange{}
	for _, k := range sortedKeys(keys) {
		sb, okB := b[k]
		sa, okA := a[k]
		c := view.SLIChange{Controller: k.controller, Queue: k.queue, Change: presence(okB, okA)}
		c.QueueWait = verdictChange(queueWaitVerdict(sb, okB), queueWaitVerdict(sa, okA))
		c.Spec = verdictChange(specVerdict(sb, okB), specVerdict(sa, okA))
		shown := c.Change != "changed" || c.QueueWait.Change != "" || c.Spec.Change != ""
		fb, fa := sliFigures(sb, okB), sliFigures(sa, okA)
		for i, name := range sliFigureNames {
			if fb[i] == nil && fa[i] == nil {
				continue
			}
			c.Figures = append(c.Figures, view.Figure{Name: name, Before: fb[i], After: fa[i]})
			shown = shown || verdictFigures[i] && differs(fb[i], fa[i])
		}
		if shown {
			out = append(out, c)
		}
	}
	return out, ""
}

// slisOf is the report's service levels by controller and queue.
func slisOf(r view.Report, ids map[string]string) map[queueKey]view.SLI {
	out := map[queueKey]view.SLI{}
	for _, s := range r.SLIs {
		k := queueKey{identity(ids, s.Target), s.Queue}
		if old, ok := out[k]; ok && value(old.QueueWait.Samples) >= value(s.QueueWait.Samples) {
			continue
		}
		out[k] = s
	}
	return out
}

func queueWaitVerdict(s view.SLI, ok bool) string {
	if !ok {
		return ""
	}
	return s.QueueWait.Verdict
}

func specVerdict(s view.SLI, ok bool) string {
	if !ok || s.Spec == nil {
		return ""
	}
	return s.Spec.Verdict
}

// verdictChange says "before -> after" when the verdicts differ ("-" for a side without one).
func verdictChange(before, after string) view.VerdictChange {
	v := view.VerdictChange{Before: before, After: after}
	if before != after {
		v.Change = orDash(before) + " -> " + orDash(after)
	}
	return v
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// sliFigures are a queue's figures, in the order of sliFigureNames; all nil for a side
// without the queue.
func sliFigures(s view.SLI, ok bool) []*float64 {
	out := make([]*float64, len(sliFigureNames))
	if !ok {
		return out
	}
	out[0], out[1], out[2] = s.QueueWait.Samples, s.QueueWait.P99Seconds, s.QueueWait.OverShare
	if s.Spec != nil {
		out[3], out[4] = s.Spec.Samples, s.Spec.P99Seconds
	}
	return out
}

// kindSLIChanges compares the spec latency and time to Ready of every kind (report json
// objects.kinds[].specLatency and .timeToReady); a kind is shown when a figure changed. Of
// several reads of one kind (namespaces) the one with the most changes stands for it.
func kindSLIChanges(before, after view.Report) []view.KindSLIChange {
	b, a := kindFigures(before), kindFigures(after)
	keys := map[string]bool{}
	for k := range b {
		keys[k] = true
	}
	for k := range a {
		keys[k] = true
	}
	names := make([]string, 0, len(keys))
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	out := []view.KindSLIChange{}
	for _, k := range names {
		fb, fa := b[k], a[k]
		if fb == nil {
			fb = make([]*float64, len(kindFigureNames))
		}
		if fa == nil {
			fa = make([]*float64, len(kindFigureNames))
		}
		c := view.KindSLIChange{Kind: k}
		changed := false
		for i, name := range kindFigureNames {
			if fb[i] == nil && fa[i] == nil {
				continue
			}
			c.Figures = append(c.Figures, view.Figure{Name: name, Before: fb[i], After: fa[i]})
			changed = changed || differs(fb[i], fa[i])
		}
		if changed {
			out = append(out, c)
		}
	}
	return out
}

// kindFigures are the figures of each kind that was watched, in the order of kindFigureNames.
func kindFigures(r view.Report) map[string][]*float64 {
	out := map[string][]*float64{}
	if r.Objects == nil {
		return out
	}
	most := map[string]int{}
	for _, s := range r.Objects.Kinds {
		if s.SpecLatency == nil && s.TimeToReady == nil {
			continue
		}
		k := kindName(s.Kind)
		n := changesOf(s)
		if _, ok := out[k]; ok && most[k] >= n {
			continue
		}
		most[k] = n
		figs := make([]*float64, len(kindFigureNames))
		if l := s.SpecLatency; l != nil && !l.NoObservedGeneration && !l.NoStatusSubresource {
			figs[0], figs[1], figs[2], figs[3] = count(l.Changes), l.P50Seconds, l.P99Seconds, count(l.Pending)
		}
		if t := s.TimeToReady; t != nil && !t.NoReadyCondition && !t.NoStatusSubresource {
			figs[4], figs[5], figs[6] = t.P50Seconds, t.P99Seconds, count(t.Pending)
		}
		out[k] = figs
	}
	return out
}

func changesOf(s objects.Summary) int {
	if s.SpecLatency != nil {
		return s.SpecLatency.Changes
	}
	return s.TimeToReady.Changes
}

// kindName is how the diff names a kind: "Workload.demo.ctrldiag.dev", "Deployment.apps".
func kindName(k objects.Kind) string {
	if k.Group != "" {
		return k.Kind + "." + k.Group
	}
	return k.Kind
}

func count(n int) *float64 {
	v := float64(n)
	return &v
}

func sortedKeys(set map[queueKey]bool) []queueKey {
	keys := make([]queueKey, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].controller != keys[j].controller {
			return keys[i].controller < keys[j].controller
		}
		return keys[i].queue < keys[j].queue
	})
	return keys
}
