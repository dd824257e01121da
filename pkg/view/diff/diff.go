// Package diff compares two reports, of two snapshots (made from their pages as `report
// --from-snapshot` makes them) or of two `report -o json` files: per controller and queue
// the figures that changed, the objects that failed, the service levels (their verdicts and
// the figures behind them, and each kind's spec latency and time to Ready), and the findings that appeared and
// those that resolved. A controller is matched across the two by what it is, not by where it
// was read: by its workload, not its pod, so that a rollout, which renames the pods, compares
// the same controller before and after; and a target without a workload (saved pages, a URL)
// by the queues and controllers it runs, not by its file's name.
//
// Agrees checks a snapshot's stored report against the report its pages make.
package diff

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// Compare compares two reports; names say where each came from.
func Compare(before, after view.Report, beforeName, afterName string) view.Diff {
	d := view.Diff{APIVersion: view.APIVersion, Kind: view.DiffKind, Before: side(before, beforeName), After: side(after, afterName),
		Queues: []view.QueueChange{}, Objects: []view.ObjectChange{}, Appeared: []findings.Finding{}, Resolved: []findings.Finding{}}
	ib, ia := identities(before, after)
	b, a := queues(before, ib), queues(after, ia)
	for _, k := range unionKeys(b, a) {
		qb, okB := b[k]
		qa, okA := a[k]
		c := view.QueueChange{Controller: k.controller, Queue: k.queue, Change: presence(okB, okA)}
		for i, name := range figureNames {
			f := view.Figure{Name: name}
			if okB {
				f.Before = qb[i]
			}
			if okA {
				f.After = qa[i]
			}
			if c.Change != "changed" || differs(f.Before, f.After) {
				if f.Before != nil || f.After != nil {
					c.Figures = append(c.Figures, f)
				}
			}
		}
		if c.Change != "changed" || len(c.Figures) > 0 {
			d.Queues = append(d.Queues, c)
		}
	}
	d.Objects = objectChanges(before, after)
	d.SLIs, d.SLINote = sliChanges(before, after, ib, ia)
	d.KindSLIs = kindSLIChanges(before, after)
	fb, fa := findingKeys(before, ib), findingKeys(after, ia)
	for _, f := range after.Findings {
		if !fb[findingKey(ia, f)] {
			d.Appeared = append(d.Appeared, f)
		}
	}
	for _, f := range before.Findings {
		if !fa[findingKey(ib, f)] {
			d.Resolved = append(d.Resolved, f)
		}
	}
	// In the report's order, whatever version wrote a report read back: by impact on its side.
	view.RankFindings(after, d.Appeared)
	view.RankFindings(before, d.Resolved)
	return d
}

func side(r view.Report, name string) view.Side {
	return view.Side{Source: name, GeneratedAt: r.GeneratedAt, Scope: r.Scope, Window: r.Window, Summary: r.Summary}
}

// figureNames are the figures compared per queue, in the order shown.
var figureNames = []string{"depth", "drain seconds", "adds/s", "completions/s", "retries/s", "reconcile errors",
	"queue p50", "queue p90", "queue p99", "work p50", "work p90", "work p99"}

type queueKey struct{ controller, queue string }

// queues gives each queue's figures by controller (ids: each target's, see identities) and
// queue, read from the report's rows (view.FromSections). Replicas of one workload share a
// controller: the busiest (most adds) stands for it, the leader.
func queues(r view.Report, ids map[string]string) map[queueKey][]*float64 {
	out := map[queueKey][]*float64{}
	for _, q := range view.FromSections(r.Backlog, r.Events) {
		figs := figures(q)
		k := queueKey{identity(ids, q.Target), q.Queue}
		if old, ok := out[k]; ok && value(old[2]) >= value(figs[2]) {
			continue
		}
		out[k] = figs
	}
	return out
}

// figures are a row's figures, in the order of figureNames.
func figures(q view.Queue) []*float64 {
	var errs *float64
	if v, ok := q.Reconciles["error"]; ok {
		errs = &v
	}
	return []*float64{q.Depth, q.DrainSeconds, q.AddsPerSecond, q.CompletionsPerSecond, q.RetriesPerSecond, errs,
		q.QueueP50Seconds, q.QueueP90Seconds, q.QueueP99Seconds, q.WorkP50Seconds, q.WorkP90Seconds, q.WorkP99Seconds}
}

func value(v *float64) float64 {
	if v == nil {
		return -1
	}
	return *v
}

// podWorkloads are the workloads of a report's pods, by "namespace/name" (the first pod of a
// name that has one).
func podWorkloads(r view.Report) map[string]string {
	out := map[string]string{}
	for _, p := range r.Pods {
		k := p.Namespace + "/" + p.Name
		if _, ok := out[k]; !ok && p.Workload != "" {
			out[k] = p.Workload
		}
	}
	return out
}

// controller names a target by its workload (workloads: podWorkloads) when its pod has one
// ("ns/deployment/name:8080"), else by the target.
func controller(workloads map[string]string, target string) string {
	rest, port, hasPort := strings.Cut(target, ":")
	ns, pod, ok := strings.Cut(rest, "/")
	if !ok || strings.Contains(pod, "/") {
		return target
	}
	w, ok := workloads[ns+"/"+pod]
	if !ok {
		return target
	}
	if hasPort {
		return ns + "/" + w + ":" + port
	}
	return ns + "/" + w
}

// presence is how a queue changed between the snapshots as far as being there goes: appeared
// (only after), gone (only before) or changed (in both).
func presence(before, after bool) string {
	switch {
	case !before:
		return "appeared"
	case !after:
		return "gone"
	}
	return "changed"
}

func unionKeys(a, b map[queueKey][]*float64) []queueKey {
	set := map[queueKey]bool{}
	for k := range a {
		set[k] = true
	}
	for k := range b {
		set[k] = true
	}
	return sortedKeys(set)
}

// differs says whether two figures differ as shown: to three significant digits.
func differs(a, b *float64) bool {
	if a == nil || b == nil {
		return (a == nil) != (b == nil)
	}
	return fmt.Sprintf("%.3g", *a) != fmt.Sprintf("%.3g", *b)
}

// identity is target's controller as ids name it; a target ids do not know is itself.
func identity(ids map[string]string, target string) string {
	if id, ok := ids[target]; ok {
		return id
	}
	return target
}

func findingKey(ids map[string]string, f findings.Finding) string {
	return f.Code + "|" + identity(ids, f.Target) + "|" + f.Queue
}

func findingKeys(r view.Report, ids map[string]string) map[string]bool {
	out := map[string]bool{}
	for _, f := range r.Findings {
		out[findingKey(ids, f)] = true
	}
	return out
}

// objectChanges compares the objects view kind by kind.
func objectChanges(before, after view.Report) []view.ObjectChange {
	type counts struct{ failed, behind int }
	get := func(r view.Report) map[string]counts {
		out := map[string]counts{}
		if r.Objects == nil {
			return out
		}
		for _, s := range r.Objects.Kinds {
			k := s.Kind.Kind
			if s.Kind.Group != "" {
				k += "." + s.Kind.Group
			}
			c := out[k]
			c.failed += s.Failed
			c.behind += s.BehindSpec
			out[k] = c
		}
		return out
	}
	b, a := get(before), get(after)
	var kinds []string
	for k := range b {
		kinds = append(kinds, k)
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			kinds = append(kinds, k)
		}
	}
	sort.Strings(kinds)
	out := []view.ObjectChange{}
	for _, k := range kinds {
		if b[k] != a[k] {
			out = append(out, view.ObjectChange{Kind: k, FailedBefore: b[k].failed, FailedAfter: a[k].failed,
				BehindSpecBefore: b[k].behind, BehindSpecAfter: a[k].behind})
		}
	}
	return out
}
