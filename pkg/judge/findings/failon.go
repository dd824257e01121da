// This file reads the level of --fail-on, the flag of the commands that exit 3 on
// findings, and decides whether findings reach it. The report judges all its findings against
// a severity ("warning"); diff judges the findings that appeared ("new-warning"): one level
// and one decision, two scales of words. Severities are ranked by pkg/judge/findings.

package findings

import (
	"errors"
	"fmt"
	"strings"
)

// FailOnNone is the level nothing reaches, every scale's default.
const FailOnNone = "none"

// FailOnLevel is a --fail-on level: findings of Severity or worse fail; none when Severity is "".
type FailOnLevel struct {
	Severity Severity
}

// Fails reports whether a finding of fs reaches the level: the findings a report judges, or
// those that appeared in a diff. A finding of an unknown severity reaches no level.
func (l FailOnLevel) Fails(fs []Finding) bool {
	if l.Severity == "" {
		return false
	}
	for _, f := range fs {
		if f.Severity.AtLeast(l.Severity) {
			return true
		}
	}
	return false
}

// FailOnScale is the words of one command's --fail-on: none, and a severity that can fail, with
// the scale's prefix.
type FailOnScale struct {
	prefix string // before a severity's name
	what   string // what fails, as the flag's help says it
}

var (
	// FailOnReported is report's (and snapshot's) scale: none, warning or critical.
	FailOnReported = FailOnScale{what: "a finding reaches this severity"}
	// FailOnAppeared is diff's scale, of the findings that appeared: none, new-warning or
	// new-critical.
	FailOnAppeared = FailOnScale{prefix: "new-", what: "a finding of this severity appeared"}
)

// failing are the severities a level can name, least severe first: every severity worse
// than info.
func failing() []Severity {
	var out []Severity
	all := Severities()
	for i := len(all) - 1; i >= 0; i-- {
		if all[i].Rank() < Info.Rank() {
			out = append(out, all[i])
		}
	}
	return out
}

// Values are the words of the scale, none first, then from the least severe to the worst.
func (s FailOnScale) Values() []string {
	out := []string{FailOnNone}
	for _, sev := range failing() {
		out = append(out, s.prefix+string(sev))
	}
	return out
}

// Words lists the values as the help and the errors say them: "none, warning or critical".
func (s FailOnScale) Words() string {
	v := s.Values()
	return strings.Join(v[:len(v)-1], ", ") + " or " + v[len(v)-1]
}

// Help is the flag's help: what makes the command exit 3, and the values.
func (s FailOnScale) Help() string {
	return "Exit 3 when " + s.what + ": " + s.Words()
}

// Parse reads a value of the scale. The error says the values, and the one meant when the
// value is another scale's word or differs only in case.
func (s FailOnScale) Parse(v string) (FailOnLevel, error) {
	if v == FailOnNone {
		return FailOnLevel{}, nil
	}
	for _, sev := range failing() {
		if v == s.prefix+string(sev) {
			return FailOnLevel{Severity: sev}, nil
		}
	}
	err := fmt.Sprintf("must be %s, got %q", s.Words(), v)
	if meant := s.meant(v); meant != "" {
		err += fmt.Sprintf(" (did you mean %s?)", meant)
	}
	return FailOnLevel{}, errors.New(err)
}

// meant is the value of the scale that v names in another scale's words or case, or "".
func (s FailOnScale) meant(v string) string {
	w := strings.ToLower(strings.TrimSpace(v))
	if w == FailOnNone {
		return FailOnNone
	}
	w = strings.TrimPrefix(w, FailOnAppeared.prefix)
	for _, sev := range failing() {
		if w == string(sev) {
			return s.prefix + w
		}
	}
	return ""
}
