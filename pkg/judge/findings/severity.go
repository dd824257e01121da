package findings

// Severity of a finding.
type Severity string

const (
	Info     Severity = "info"
	Warning  Severity = "warning"
	Critical Severity = "critical"
)

// severities is the one ranking of the severities, worst first: a severity's rank is its
// place here. Sort, Worst, the queues' status, diff, the alerts and --fail-on all read it.
var severities = []Severity{Critical, Warning, Info}

// Severities are the known severities, worst first.
func Severities() []Severity { return append([]Severity(nil), severities...) }

// Rank orders severities, worst first (lower is worse); an unknown severity ranks below
// info.
func (s Severity) Rank() int {
	for i, v := range severities {
		if v == s {
			return i
		}
	}
	return len(severities)
}

// Known reports whether s is one of the severities.
func (s Severity) Known() bool { return s.Rank() < len(severities) }

// AtLeast reports whether s is level or worse; nothing reaches an unknown level, and an
// unknown severity reaches none.
func (s Severity) AtLeast(level Severity) bool {
	return level.Known() && s.Rank() <= level.Rank()
}
