package view

import (
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
)

// Suppressions are the findings a team has accepted for now (an ignore file entry or a
// workload's ctrldiag.io/ignore annotation): taken out of Findings and the summary, listed
// here with why, so that nothing is hidden.
type Suppressions struct {
	Findings []Suppressed `json:"findings"`
	// Expired are ignore file entries past their expiry date: they no longer suppress.
	Expired []string `json:"expired,omitempty"`
}

// Suppressed is one finding left out of the findings and of --fail-on.
type Suppressed struct {
	findings.Finding
	Reason string `json:"reason"`
	// Source is where the suppression comes from: "FILE:LINE" or "annotation ctrldiag.io/ignore
	// on pod NAMESPACE/NAME".
	Source string `json:"source"`
}

// changing counts the suppressed findings that would have changed the verdict (warning or
// critical) and names where they were left out: the ignore file without its line numbers, or
// the annotation; nothing for nil.
func (s *Suppressions) changing() (int, []string) {
	if s == nil {
		return 0, nil
	}
	n := 0
	var by []string
	seen := map[string]bool{}
	for _, f := range s.Findings {
		if f.Severity == findings.Info {
			continue
		}
		n++
		where := f.Source
		if strings.HasPrefix(where, "annotation ") {
			where, _, _ = strings.Cut(where, " on ")
		} else if i := strings.LastIndex(where, ":"); i > 0 {
			where = where[:i]
		}
		if !seen[where] {
			seen[where] = true
			by = append(by, where)
		}
	}
	return n, by
}
