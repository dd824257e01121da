package render

import (
	"fmt"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

var (
	diffSLIHeader  = []string{"CONTROLLER", "QUEUE", "WAITS", "QUEUE WAIT p99", "OVER OBJECTIVE", "QUEUE WAIT", "SPEC p99", "SPEC TO OBSERVED"}
	diffKindHeader = []string{"KIND", "CHANGES", "SPEC p50", "SPEC p99", "PENDING", "READY p50", "READY p99", "NOT READY"}
)

// diffSLIRows are the rows of the service levels that changed: one per queue, each figure
// "before -> after" (one value when it did not change), each verdict "holds -> breaks"; then
// one per kind.
func diffSLIRows(d view.Diff) (queues, kinds [][]string) {
	for _, s := range d.SLIs {
		fig := figureMap(s.Figures)
		queues = append(queues, []string{s.Controller, s.Queue, fig.cell("waits", Count), fig.cell("queue wait p99", Seconds),
			fig.cell("share over objective", share), verdictCell(s.QueueWait), fig.cell("spec p99", Seconds), verdictCell(s.Spec)})
	}
	for _, k := range d.KindSLIs {
		fig := figureMap(k.Figures)
		kinds = append(kinds, []string{k.Kind, fig.cell("spec changes", Count), fig.cell("spec p50", Seconds), fig.cell("spec p99", Seconds),
			fig.cell("spec pending", Count), fig.cell("ready p50", Seconds), fig.cell("ready p99", Seconds), fig.cell("ready pending", Count)})
	}
	return queues, kinds
}

type figures map[string]view.Figure

func figureMap(fs []view.Figure) figures {
	m := figures{}
	for _, f := range fs {
		m[f.Name] = f
	}
	return m
}

// cell is a figure as "before -> after", or its one value when both sides show the same; "-"
// when neither side has it.
func (m figures) cell(name string, format func(*float64) string) string {
	f, ok := m[name]
	if !ok {
		return "-"
	}
	b, a := format(f.Before), format(f.After)
	if b == a {
		return a
	}
	return b + " -> " + a
}

// verdictCell is a verdict, or its change "holds -> breaks".
func verdictCell(v view.VerdictChange) string {
	switch {
	case v.Change != "":
		return v.Change
	case v.After == "":
		return "-"
	}
	return v.After
}

// share formats a share of samples as a percentage: 0.0%, 35.2%; "-" when unknown.
func share(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100**v)
}

// orElse is s, or otherwise when s is "".
func orElse(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}
