package alerts

import (
	"fmt"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
)

// Markdown renders docs/alerts.md: every alert with its finding, its logic and its
// expression, section by check (the anchors runbook_url points at), the recording rules and
// the checks not exported. A unit test keeps docs/alerts.md equal to Markdown(defaults).
func Markdown(s Set) string {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
	p("# Alerts that agree with the report")
	p("")
	p("`kubectl ctrldiag rules` prints these rules (here with the default thresholds and a %s window;", promDuration(s.Options.Window))
	p("`--threshold`, `--thresholds`, `--window`, `--for` and `--matchers` change them; see [rules](commands/rules.md)).")
	p("Each alert raises the finding `kubectl ctrldiag report` raises, with the same thresholds: run")
	p("the report for the evidence. This page is generated (`go test ./pkg/judge/alerts -update`); each")
	p("alert's `runbook_url` points at its check's section below.")
	p("")
	p("| alert | finding | severity | for | reads |")
	p("|---|---|---|---|---|")
	for _, a := range s.Alerts {
		def, _ := findings.Lookup(a.Check)
		p("| [`%s`](#%s) | %s `%s` | %s | %s | %s |", a.Name, Anchor(def), a.Code, a.Check, a.Severity, promDuration(a.For), a.Over)
	}
	p("")
	p("Not exported:")
	p("")
	for _, n := range s.NotExported {
		p("- %s `%s`: %s.", n.Code, n.Check, n.Why)
	}
	p("")
	p("Series the rules join: a target is `(job, instance)`; a queue is its `name` on a target, and")
	p("controller-runtime's controller series are recorded with the `name` of their queue. The alerts")
	p("over kube-state-metrics join its series to the controllers' targets on `namespace`, `pod` and")
	p("`container` (the labels the Prometheus Operator gives a target; relabel plain Prometheus'")
	p("`kubernetes_sd` targets to the same names).")
	p("")
	p("Histograms are read from their classic series (`_bucket`, `_sum`, `_count`) or, where a target")
	p("exports one as a native histogram only (Prometheus with native histograms enabled), from the")
	p("native histogram: each recorded figure is the classic expression `or` its native form")
	p("(`histogram_quantile`, `histogram_count`, `histogram_sum`, `histogram_fraction`), so a series")
	p("that has both is read once, classic. Native quantiles are within a native bucket (10 % at the")
	p("usual factor of 1.1); classic ones within the workqueue's buckets, ten times apart.")
	seen := map[string]bool{}
	for _, a := range s.Alerts {
		def, _ := findings.Lookup(a.Check)
		if !seen[a.Check] {
			seen[a.Check] = true
			p("")
			p("## %s %s", def.Code, def.Check)
			p("")
			p("**%s.** %s", def.Title, def.Explanation)
			p("")
			p("What to change: %s", def.RecommendationFor(""))
		}
		p("")
		p("### %s", a.Name)
		p("")
		p("%s, for %s, over %s. Fires when %s.", a.Severity, promDuration(a.For), a.Over, a.Logic)
		if a.Differs != "" {
			p("Unlike the report: %s.", a.Differs)
		}
		p("")
		p("```promql")
		p("%s", a.Expr)
		p("```")
	}
	p("")
	p("## Recording rules")
	p("")
	p("The figures the alerts share, computed once per evaluation:")
	for _, r := range s.Records {
		p("")
		p("`%s`", r.Record)
		p("```promql")
		p("%s", r.Expr)
		p("```")
	}
	return b.String()
}
