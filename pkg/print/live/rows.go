package live

import (
	"math"
	"sort"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/print/render"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// row is one line of the view: a queue of a target, or a target that could not be read.
type row struct {
	key  string
	item view.Queue
	// err is why the target could not be read; its row has no figures.
	err string
}

func (r row) status() string {
	if r.err != "" {
		return string(health.StatusError)
	}
	return r.item.Status
}

// reason is the row's top finding: the summary and code behind its STATUS, or the error.
func (r row) reason() string {
	if r.err != "" {
		return r.err
	}
	return r.item.Reason
}

func key(target, queue string) string { return target + "\x00" + queue }

// rowsOf turns a frame's list into rows: the targets that could not be read (and gave no
// queue), then the queues, in the list's order (worst first), then the folded standbys.
func rowsOf(l view.QueueList) []row {
	has := map[string]bool{}
	for _, it := range l.Items {
		has[it.Target] = true
	}
	var out []row
	for _, e := range l.Errors {
		if !has[e.Target] {
			out = append(out, row{key: key(e.Target, ""), item: view.Queue{Target: e.Target}, err: e.Error})
		}
	}
	for _, it := range l.Items {
		out = append(out, row{key: key(it.Target, it.Queue), item: it})
	}
	// The standby replicas folded into their leader's rows keep a row each, as in the table
	// of queues, so that none disappears from the view.
	for _, g := range l.Replicas {
		for _, t := range g.Folded() {
			out = append(out, row{key: key(t, ""), item: view.Queue{Target: t, Status: string(health.StatusStandby), Reason: render.StandbyReason(g)}})
		}
	}
	return out
}

// sortBy is an order of the rows; s cycles through them.
type sortBy int

const (
	byStatus sortBy = iota
	byDepth
	byAdds
	byName
	sortModes
)

func (s sortBy) String() string {
	return [...]string{"status", "depth", "adds/s", "name"}[s]
}

// order sorts rows by s, keeping the list's order (worst first) among equals.
func order(rows []row, s sortBy) {
	value := func(v *float64) float64 {
		if v == nil || math.IsNaN(*v) {
			return math.Inf(-1)
		}
		return *v
	}
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		switch s {
		case byDepth:
			return value(a.item.Depth) > value(b.item.Depth)
		case byAdds:
			return value(a.item.AddsPerSecond) > value(b.item.AddsPerSecond)
		case byName:
			return a.key < b.key
		}
		return health.Status(a.status()).Rank() < health.Status(b.status()).Rank()
	})
}

// filter keeps the rows whose target or queue holds text (any case).
func filter(rows []row, text string) []row {
	if text == "" {
		return rows
	}
	text = strings.ToLower(text)
	var out []row
	for _, r := range rows {
		if strings.Contains(strings.ToLower(r.item.Target), text) || strings.Contains(strings.ToLower(r.item.Queue), text) {
			out = append(out, r)
		}
	}
	return out
}
