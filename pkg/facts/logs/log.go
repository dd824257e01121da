package logs

import "time"

// Log is what one reading of a controller's log gave: the facts extracted, or why there are
// none. It is a fact of the target, kept in snapshots.
type Log struct {
	// Pod and Container are whose log was read ("ns/name", "manager").
	Pod       string `json:"pod,omitempty"`
	Container string `json:"container,omitempty"`
	// Since is the oldest line asked for, and From the start of the window judged: the waits,
	// panics, losses and timeouts older than From are not counted; failures are counted from
	// Since (a failing object's retries back off, and its lines with them).
	Since time.Time `json:"since,omitempty"`
	From  time.Time `json:"from,omitempty"`
	// Time is when it was read.
	Time time.Time `json:"time,omitempty"`
	// Lines and Bytes are how much was read; Cut says the read stopped at its byte limit.
	Lines int   `json:"lines"`
	Bytes int64 `json:"bytes"`
	Cut   bool  `json:"cut,omitempty"`
	// Failures are the failing objects, grouped by controller, object and error, the newest
	// first (at most MaxFailures; Dropped counts the groups left out).
	Failures []Failure `json:"failures,omitempty"`
	Dropped  int       `json:"dropped,omitempty"`
	// Throttling are the client-side throttling waits of the window; nil when none.
	Throttling *Throttling `json:"throttling,omitempty"`
	// Panics are the panics of the window, by message (at most MaxPanics).
	Panics []Panic `json:"panics,omitempty"`
	// LeaderLost are the leader-election losses of the window; nil when none.
	LeaderLost *Occurrence `json:"leaderLost,omitempty"`
	// CacheSyncTimeouts are the caches that did not sync in time, by controller.
	CacheSyncTimeouts []Occurrence `json:"cacheSyncTimeouts,omitempty"`
	// Note says why there is no log (no permission, an error) or what cut it short.
	Note string `json:"note,omitempty"`
}

// Failure is the "Reconciler error" lines of one object with one error.
type Failure struct {
	Controller string `json:"controller,omitempty"`
	// Object is NAMESPACE/NAME (NAME of a cluster-scoped object).
	Object string `json:"object"`
	// Error is the newest error logged for the object (for a line that names none, the
	// group's own).
	Error string    `json:"error,omitempty"`
	Count int       `json:"count"`
	Last  time.Time `json:"last,omitempty"`
}

// Throttling is the client-side throttling waits: how many were logged and the longest.
type Throttling struct {
	Count          int       `json:"count"`
	LongestSeconds float64   `json:"longestSeconds"`
	Last           time.Time `json:"last,omitempty"`
}

// Panic is the panics with one message: the first frames of the code that panicked.
type Panic struct {
	Controller string    `json:"controller,omitempty"`
	Message    string    `json:"message"`
	Frames     []string  `json:"frames,omitempty"`
	Count      int       `json:"count"`
	Last       time.Time `json:"last,omitempty"`
}

// Occurrence is lines of one kind: how many, the last one's time and message.
type Occurrence struct {
	Controller string    `json:"controller,omitempty"`
	Message    string    `json:"message,omitempty"`
	Count      int       `json:"count"`
	Last       time.Time `json:"last,omitempty"`
}

// Bounds of what a Log keeps.
const (
	MaxFailures = 50
	MaxPanics   = 5
	MaxFrames   = 6
	MaxCaches   = 10
)

// FailuresOf are the failures of a controller (all of them when controller is ""), the newest
// first; a failure without a controller name is the controller's when it is the only one.
func (l *Log) FailuresOf(controller string) []Failure {
	if l == nil {
		return nil
	}
	var out []Failure
	for _, f := range l.Failures {
		if controller == "" || f.Controller == controller || f.Controller == "" {
			out = append(out, f)
		}
	}
	return out
}

// PanicsOf are the panics of a controller, or those that name none.
func (l *Log) PanicsOf(controller string) []Panic {
	if l == nil {
		return nil
	}
	var out []Panic
	for _, p := range l.Panics {
		if p.Controller == "" || p.Controller == controller {
			out = append(out, p)
		}
	}
	return out
}
