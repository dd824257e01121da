package knobs

import (
	"fmt"
	"strings"
)

// Markdown renders the table for docs/guide/knobs.md: what each size answers, then one row per
// controller with its signs and, per size, its flags and their defaults.
func Markdown() string {
	t := table()
	var b strings.Builder
	head, rule := "| controller | recognised by | objects read in |", "|---|---|---|"
	for _, s := range t.Sizes {
		fmt.Fprintf(&b, "- %s: %s\n", s.Name, code(s.Checks))
		head += " " + s.Name + ": flag (default) |"
		rule += "---|"
	}
	b.WriteString("\n" + head + "\n" + rule + "\n")
	for _, c := range t.Controllers {
		fmt.Fprintf(&b, "| %s | %s | %s |", c.Title, signsText(c.Signs), scopeText(c.AllNamespaces))
		for _, s := range t.Sizes {
			var cell []string
			for _, k := range c.Knobs {
				if k.Sizes != s.Name {
					continue
				}
				flags := make([]string, len(k.Flags))
				for j, f := range k.Flags {
					flags[j] = fmt.Sprintf("`%s` (%s)", f.Flag, f.Default)
				}
				of := ""
				switch {
				case len(k.Queues) > 0:
					of = code(k.Queues) + ": "
				case len(cell) > 0:
					of = "other queues: " // the knobs before named theirs
				}
				cell = append(cell, of+strings.Join(flags, ", "))
			}
			fmt.Fprintf(&b, " %s |", strings.Join(cell, "; "))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// scopeText says where report reads the objects of the controller's kinds.
func scopeText(s *Scope) string {
	if s == nil {
		return "the namespace asked for"
	}
	var unless []string
	for _, r := range s.Unless {
		if r.Value != "" {
			unless = append(unless, "`"+r.Flag+"="+r.Value+"`")
		} else {
			unless = append(unless, "`"+r.Flag+"`")
		}
	}
	if len(unless) == 0 {
		return "every namespace"
	}
	return "every namespace, unless " + strings.Join(unless, " or ") + " is set"
}

func signsText(s Signs) string {
	var parts []string
	for _, p := range []struct {
		what  string
		names []string
	}{{"image", s.Images}, {"program", s.Binaries}, {"metric", s.Metrics}, {"queue", s.Queues}} {
		if len(p.names) > 0 {
			parts = append(parts, p.what+" "+code(p.names))
		}
	}
	return strings.Join(parts, "; ")
}

func code(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "`" + n + "`"
	}
	return strings.Join(out, ", ")
}
