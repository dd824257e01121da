package view

import (
	"fmt"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
)

// Troubles are the controllers in trouble, worst first, from the report's findings (ranked,
// RankFindings), its capacity section and its sections 2 and 4: one per target and queue with
// a warning or critical finding, or per target for those about no queue. A finding about a
// whole target that names a cause (the client's rate limiter, the API server's throttling)
// is the cause of the target's queues in trouble rather than an entry of its own, when there
// are any.
func Troubles(fs []findings.Finding, caps []Capacity, backlog []Backlog, events []Events) []Trouble {
	type key struct{ target, queue string }
	var order []key
	groups := map[key][]findings.Finding{}
	queued := map[string]bool{} // targets with a queue in trouble
	queues := map[key]bool{}
	for _, f := range fs {
		queues[key{f.Target, f.Queue}] = true
	}
	for _, f := range fs {
		if f.Severity != findings.Critical && f.Severity != findings.Warning {
			continue
		}
		k := key{f.Target, f.Queue}
		// An informer named for its controller ("workload/workloads.example.com") is that
		// controller's cache: one controller in trouble, not two.
		if c, _, ok := strings.Cut(f.Queue, "/"); ok && f.Check == "cache-sync-lag" && queues[key{f.Target, c}] {
			k.queue = c
		}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], f)
		if f.Queue != "" {
			queued[f.Target] = true
		}
	}
	h := harmsOf(backlog, events)
	out := []Trouble{}
	for _, k := range order {
		g := groups[k]
		var targetCauses []findings.Finding
		if k.queue == "" && queued[k.target] {
			// Causes about the whole target go with its queues; the rest stay an entry.
			var rest []findings.Finding
			for _, f := range g {
				if !findings.IsCause(f.Check) {
					rest = append(rest, f)
				}
			}
			if len(rest) == 0 {
				continue
			}
			g = rest
		} else if k.queue != "" {
			for _, f := range groups[key{k.target, ""}] {
				if findings.IsCause(f.Check) {
					targetCauses = append(targetCauses, f)
				}
			}
		}
		out = append(out, trouble(k.queue, g, targetCauses, capacityOf(caps, k.target, k.queue), h.of(g[0])))
	}
	return out
}

// trouble is one entry, about queue ("" for the whole target): g are its findings in the
// report's order, causes the findings about its whole target that name a cause, c its queue's
// capacity row (nil when not modelled).
func trouble(queue string, g, causes []findings.Finding, c *Capacity, m harm) Trouble {
	t := Trouble{Severity: findings.Worst(g), Target: g[0].Target, Queue: queue}
	for _, f := range g {
		t.Codes = append(t.Codes, f.Code)
	}
	// What: the worst symptom (the first finding that is no cause), else the first finding.
	what := g[0]
	for _, f := range g {
		if !findings.IsCause(f.Check) {
			what = f
			break
		}
	}
	t.What = whatOf(what, m)
	t.Cause = causeOf(append(append([]findings.Finding{}, g...), causes...), what)
	if t.Cause == "" {
		t.Context = contextOf(g)
	}
	t.Change, t.ChangeCode = changeOf(g, causes, c, g[0])
	return t
}

// capacityOf is the capacity row of a queue, nil when it was not modelled.
func capacityOf(caps []Capacity, target, queue string) *Capacity {
	if queue == "" {
		return nil
	}
	for i := range caps {
		if caps[i].Target == target && caps[i].Queue == queue {
			return &caps[i]
		}
	}
	return nil
}

// verdict is the summary's verdict, in words: the controllers in trouble and the findings.
func verdict(s Summary) string {
	var v string
	switch {
	case s.Read == 0:
		return "nothing could be read"
	case s.Critical == 0 && s.Warning == 0:
		v = "healthy: the controllers keep up"
	default:
		counts := printable.Plural(s.Warning, "warning")
		switch {
		case s.Critical > 0 && s.Warning == 0:
			counts = printable.Plural(s.Critical, "critical finding")
		case s.Critical > 0:
			counts = printable.Plural(s.Critical, "critical finding") + " and " + counts
		}
		v = fmt.Sprintf("%s in trouble, with %s", printable.Plural(len(s.InTrouble), "controller"), counts)
	}
	if s.Suppressed > 0 {
		// What was left out changed the answer: the user must see that it was, and by what.
		v += fmt.Sprintf(" (%s suppressed by %s)", printable.Plural(s.Suppressed, "finding"), strings.Join(s.SuppressedBy, ", "))
	}
	return v
}

// healthy is the summary's line when no controller is in trouble: what was checked.
func healthy(s Summary, queues int, window string) string {
	if s.Read == 0 || s.Critical > 0 || s.Warning > 0 {
		return ""
	}
	over := "over " + window
	if window == Lifetime || window == "" {
		over = "since each process started"
	}
	line := fmt.Sprintf("%s, %s read %s; no warnings", printable.Plural(s.Read, "target"), printable.Plural(queues, "queue"), over)
	if s.Info > 0 {
		line += " (" + printable.Plural(s.Info, "info finding") + ")"
	}
	return line
}
