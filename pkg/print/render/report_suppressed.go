package render

import (
	"fmt"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// suppressedLine is the one-line count of suppressed findings by source and reason:
// "Suppressed: 3, by .ctrldiag-ignore.yaml:4: capacity raised ...".
func suppressedLine(s view.Suppressions) string {
	var parts []string
	seen := map[string]int{}
	var order []string
	for _, f := range s.Findings {
		k := f.Source + ": " + f.Reason
		if _, ok := seen[k]; !ok {
			order = append(order, k)
		}
		seen[k]++
	}
	for _, k := range order {
		parts = append(parts, fmt.Sprintf("%d by %s", seen[k], k))
	}
	return fmt.Sprintf("Suppressed: %d (%s)", len(s.Findings), strings.Join(parts, "; "))
}

// writeSuppressed writes the suppressed findings and expired entries after the findings of
// the text and markdown reports; bullet is the list marker of the format, esc how it escapes
// text from outside (the ignore file's reasons, the findings' targets and queues).
func writeSuppressed(ew *errWriter, r view.Report, title, bullet string, esc func(string) string) {
	s := r.Suppressions
	if s == nil {
		return
	}
	ew.printf("%s", title)
	ew.printf("%s\n", esc(suppressedLine(*s)))
	for _, f := range s.Findings {
		subject := f.Target
		if f.Queue != "" {
			subject += " (queue " + f.Queue + ")"
		}
		ew.printf("%s%s %s %s on %s: %s (%s)\n", bullet, esc(strings.ToUpper(string(f.Severity))), esc(f.Code), esc(f.Check),
			esc(subject), esc(f.Reason), esc(f.Source))
	}
	for _, e := range s.Expired {
		ew.printf("%snotice: %s\n", bullet, esc(e))
	}
}
