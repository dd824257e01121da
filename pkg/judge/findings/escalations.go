package findings

// The severities some findings of a check are raised to above the catalog's (both checks are
// warnings there). The report's rules raise their findings with them and the alerts that
// stand for the same cases raise theirs, so that a rule file and a report always agree.
const (
	// OOMKilledSeverity: the container that serves the metrics was OOMKilled within since
	// (memory-pressure), not only near its limit.
	OOMKilledSeverity = Critical
	// SeveralLeadersSeverity: more than one replica claims to lead one lease
	// (leader-election): two controllers write the same objects.
	SeveralLeadersSeverity = Critical
)
