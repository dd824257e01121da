package findings

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/goroutines"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
)

// workersBlocked finds, in t's goroutine dump, the controllers whose every worker has run its
// item for a minute or more. It judges only a controller recognised with a workers knob (the
// number of workers is the flag's value in the container's arguments, else its default) whose
// workers' stacks name the controller: without both, "every worker" cannot be counted.
func workersBlocked(t Target) []Finding {
	p := t.Goroutines
	if p == nil || len(p.Groups) == 0 {
		return nil
	}
	m := recognise(t)
	if m == nil {
		return nil
	}
	byController := map[string][]goroutines.Group{}
	var names []string
	for _, g := range p.Groups {
		if g.Controller == "" || g.LongWaits == 0 {
			continue
		}
		if _, seen := byController[g.Controller]; !seen {
			names = append(names, g.Controller)
		}
		byController[g.Controller] = append(byController[g.Controller], g)
	}
	slices.Sort(names)
	var out []Finding
	for _, c := range names {
		a, ok := m.Advise("workers-blocked", c)
		if !ok || len(a.Flags) == 0 {
			continue
		}
		set := a.Flags[0]
		workers, err := strconv.Atoi(cmp.Or(set.Current, set.Default))
		if err != nil || workers <= 0 {
			continue
		}
		long, largest := 0, goroutines.Group{}
		for _, g := range byController[c] {
			long += g.LongWaits
			if g.LongWaits > largest.LongWaits {
				largest = g
			}
		}
		if long < workers {
			continue
		}
		where := largest.Describe()
		out = append(out, newFinding("workers-blocked", t.Kind, t.ID, c,
			fmt.Sprintf("all %d workers of %s have run their item for a minute or more: %s", workers, c, where),
			Evidence{Name: "workers blocked 1m+", Value: strconv.Itoa(long), Threshold: ">= " + strconv.Itoa(workers) + " (" + set.Flag + ")"},
			Evidence{Name: "goroutines", Value: where}))
	}
	return out
}

// WorkersInDump says whether only the goroutine dump of m can tell whether its workers are
// all blocked: it exports no workqueue figures, and it is a controller recognised with a
// workers knob for workers-blocked (cert-manager), so its dump is read even when no queue
// finding asks for it.
func WorkersInDump(m model.Target) bool {
	cur := m.Last()
	// cert-manager's queues are its controllers' sync counts (SyncsOnly): no figures of
	// their depth, waits or workers.
	if cur == nil || len(cur.Queues) > 0 && cur.SyncsOnly == "" {
		return false
	}
	// Recognised as the rules recognise it (recognise), from the same facts.
	t := Target{Cur: cur, Flagz: m.Flagz}
	if c, ok := m.Served(); ok {
		t.Pod = &Pod{Image: c.Image, Args: slices.Concat(c.Command, c.Args)}
	}
	match := recognise(t)
	if match == nil {
		return false
	}
	_, ok := match.Advise("workers-blocked", "")
	return ok
}
