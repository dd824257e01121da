package findings

import (
	"fmt"
	"sort"
	"strings"
)

// recommendationOrder is the order of the kinds of controller a recommendation is for, and
// how docs/findings.md names them.
var recommendationOrder = []struct{ key, label string }{
	{string(ControllerRuntime), "controller-runtime"},
	{string(KubeControllerManager), "kube-controller-manager"},
	{string(KubeAPIServer), "kube-apiserver"},
	{string(ClientGo), "client-go"},
	{"knob", "a recognised well-known controller ({knob} is its flag)"},
	{"default", "any other controller"},
}

// Markdown renders docs/findings.md: every check of the catalog with its code, severity,
// title, explanation, thresholds and recommendations, then every threshold with its default.
// A unit test keeps docs/findings.md equal to it.
func Markdown() string {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
	docs := map[string]ThresholdDoc{}
	for _, d := range ThresholdDocs() {
		docs[d.Name] = d
	}
	p("# Findings")
	p("")
	p("<!-- Generated from pkg/judge/findings/catalog.yaml by go test ./pkg/judge/findings -run TestFindingsDoc -update; do not edit. -->")
	p("")
	p("Every finding `kubectl ctrldiag report` can raise, as `kubectl ctrldiag explain CODE` prints it.")
	p("Codes and checks are stable: a check is never renamed and a code never reused. Among findings")
	p("of one severity, causes come before the symptoms they explain. When each check fires, in")
	p("detail: [guide/checks.md](guide/checks.md).")
	p("")
	p("| code | check | severity | title |")
	p("|---|---|---|---|")
	defs := Catalog()
	for _, d := range defs {
		p("| [%s](#%s) | `%s` | %s | %s |", d.Code, anchor(d), d.Check, d.Severity, d.Title)
	}
	for _, d := range defs {
		p("")
		p("## %s %s: %s", d.Code, d.Check, d.Title)
		p("")
		p("Severity: %s.", d.Severity)
		if d.SplitFrom != "" {
			p("Raised as `%s` before it had a check of its own: an ignore of `%s` covers it too.", d.SplitFrom, d.SplitFrom)
		}
		p("")
		p("%s", text(d.Explanation))
		if len(d.Thresholds) > 0 {
			p("")
			p("Thresholds (`--threshold name=value`):")
			p("")
			for _, n := range d.Thresholds {
				t := docs[n]
				p("- `%s` = %s (%s): %s", t.Name, t.Default, t.Unit, text(t.Meaning))
			}
		}
		p("")
		p("What to change:")
		p("")
		for _, k := range recommendationOrder {
			if r, ok := d.Recommendation[k.key]; ok {
				p("- %s: %s", k.label, text(r))
			}
		}
		var other []string
		for k := range d.Recommendation {
			known := false
			for _, o := range recommendationOrder {
				known = known || o.key == k
			}
			if !known {
				other = append(other, k)
			}
		}
		sort.Strings(other)
		for _, k := range other {
			p("- %s: %s", k, text(d.Recommendation[k]))
		}
	}
	p("")
	p("## Thresholds")
	p("")
	p("Set with `--threshold name=value` (repeatable) or `--thresholds FILE` (YAML with these names);")
	p("`kubectl ctrldiag explain thresholds` prints this list.")
	p("")
	p("| threshold | default | unit | meaning |")
	p("|---|---|---|---|")
	for _, t := range ThresholdDocs() {
		p("| `%s` | %s | %s | %s |", t.Name, t.Default, t.Unit, strings.ReplaceAll(text(t.Meaning), "|", `\|`))
	}
	return b.String()
}

// anchor is the GitHub anchor of a check's section: "cd208-workers-saturated-all-workers-busy".
func anchor(d Definition) string {
	var b strings.Builder
	for _, r := range strings.ToLower(d.Code + " " + d.Check + ": " + d.Title) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteRune('-')
		}
	}
	return b.String()
}

var markdownEscaper = strings.NewReplacer("*", `\*`, "<", `&lt;`, ">", `&gt;`)

// text is catalog text for Markdown: one line, with the characters that would be read as markup
// escaped.
func text(s string) string { return markdownEscaper.Replace(strings.Join(strings.Fields(s), " ")) }
