package view

import (
	"fmt"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
)

// changeOf is the change an entry calls for, from its findings g (in the report's order), the
// findings about its whole target that name a cause, its queue's capacity row c (nil when not
// modelled) and first, its first finding: a webhook to fix first when one slows the writes;
// the workers the capacity model advises, by the knob that sets them, with the current and
// the advised value; else the first sentence of the recommendation of the first cause (the
// client's rate limiter: more workers would only wait longer in it), of the first finding that
// names a recognised controller's knob, or of first. code is the code of the finding the
// change comes from (first's for the workers).
func changeOf(g, causes []findings.Finding, c *Capacity, first findings.Finding) (change, code string) {
	for _, f := range g {
		if f.Check == "webhook-slows-writes" {
			if hook, ok := webhookOf(f); ok {
				return "fix admission webhook " + hook + " first: more workers send it more requests", f.Code
			}
		}
	}
	if w := workersChange(g, c); w != "" {
		return w, first.Code
	}
	for _, f := range append(append([]findings.Finding{}, g...), causes...) {
		if findings.IsCause(f.Check) && f.Check != first.Check {
			return firstSentence(f.Recommendation), f.Code
		}
	}
	for _, f := range g {
		if f.Knob != nil && len(f.Knob.Flags) > 0 {
			return firstSentence(f.Recommendation), f.Code
		}
	}
	if c, ok := changes[first.Check]; ok {
		return c, first.Code
	}
	return firstSentence(first.Recommendation), first.Code
}

// changes say the change for the checks whose recommendation starts with no change to make.
var changes = map[string]string{
	"scrape-failed": "fix access to /metrics as its error says (token, RBAC, TLS)",
}

// workersChange is "MaxConcurrentReconciles 1 -> 3" (or the flag that sets the workers of a
// recognised controller, or --workers) when a finding of g is about too few workers and the
// capacity model says how many meet the queue-wait target and that more would help; "" else.
func workersChange(g []findings.Finding, c *Capacity) string {
	if c == nil || c.Workers == nil || c.WorkersNeeded == nil || !c.WorkersHelp || float64(*c.WorkersNeeded) <= *c.Workers {
		return ""
	}
	short := false
	for _, f := range g {
		switch f.Check {
		case "workers-saturated", "under-provisioned", "backlog-growing", "backlog-high", "queue-wait-slo", "priority-starvation":
			short = true
		}
	}
	if !short {
		return ""
	}
	knob := "workers"
	switch from := c.WorkersFrom; {
	case from == "controller_runtime_max_concurrent_reconciles":
		knob = "MaxConcurrentReconciles"
	case from == "--workers":
		knob = "workers (--workers)"
	case strings.HasPrefix(from, "the default of "):
		knob = strings.TrimPrefix(from, "the default of ")
	case strings.HasSuffix(from, " in the container's arguments"):
		knob = strings.TrimSuffix(from, " in the container's arguments")
	case strings.HasSuffix(from, " in the process's /flagz"):
		knob = strings.TrimSuffix(from, " in the process's /flagz")
	}
	advised := fmt.Sprint(*c.WorkersNeeded)
	if c.OfferedIsFloor {
		advised = "at least " + advised
	}
	return fmt.Sprintf("%s %g -> %s", knob, *c.Workers, advised)
}

// firstSentence is the gist of a recommendation for the summary: its first sentence, without
// what it says in brackets, up to its first semicolon; the findings hold the rest.
func firstSentence(s string) string {
	s = strings.TrimSpace(s)
	if i := sentenceEnd(s); i >= 0 {
		s = s[:i]
	}
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '(':
			if depth == 0 { // "word (aside), more" -> "word, more"
				kept := strings.TrimRight(b.String(), " ")
				b.Reset()
				b.WriteString(kept)
			}
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	if depth > 0 { // unbalanced: keep the text as it was
		b.Reset()
		b.WriteString(s)
	}
	s, _, _ = strings.Cut(b.String(), "; ")
	return strings.Join(strings.Fields(strings.TrimSuffix(s, ".")), " ")
}

// sentenceEnd is the index of the ". " that ends s's first sentence, outside brackets ("(e.g.
// 50)" ends none), or -1.
func sentenceEnd(s string) int {
	depth := 0
	for i, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case r == '.' && depth == 0 && strings.HasPrefix(s[i:], ". "):
			return i
		}
	}
	return -1
}
