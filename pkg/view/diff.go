package view

import (
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
)

// DiffKind is the kind of the diff's structured output.
const DiffKind = "ReportDiff"

// Diff is what changed from Before to After.
type Diff struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Before     Side   `json:"before"`
	After      Side   `json:"after"`
	// Queues are the queues whose figures changed, or that appeared or went, by controller.
	Queues []QueueChange `json:"queues"`
	// Objects are the kinds whose failed or behind-spec counts changed.
	Objects []ObjectChange `json:"objects"`
	// SLIs are the queues whose service levels changed (a verdict, or a figure behind one);
	// KindSLIs the kinds whose spec latency or time to Ready changed.
	SLIs     []SLIChange     `json:"slis"`
	KindSLIs []KindSLIChange `json:"kindSlis"`
	// SLINote says why the queues' service levels were not compared: one side's report has
	// queues but no service levels (made by a version before them).
	SLINote string `json:"sliNote,omitempty"`
	// Appeared are the findings of After that Before did not have; Resolved the reverse.
	Appeared []findings.Finding `json:"appeared"`
	Resolved []findings.Finding `json:"resolved"`
}

// Side is one of the two reports, in brief.
type Side struct {
	Source      string    `json:"source"`
	GeneratedAt time.Time `json:"generatedAt"`
	Scope       string    `json:"scope"`
	Window      string    `json:"window"`
	Summary     Summary   `json:"summary"`
}

// QueueChange is one queue of one controller. Change is "changed", "appeared" or "gone".
type QueueChange struct {
	Controller string   `json:"controller"`
	Queue      string   `json:"queue"`
	Change     string   `json:"change"`
	Figures    []Figure `json:"figures"`
}

// Figure is one figure before and after; null where a side has none.
type Figure struct {
	Name   string   `json:"name"`
	Before *float64 `json:"before"`
	After  *float64 `json:"after"`
}

// ObjectChange is one kind's failed and behind-spec counts before and after.
type ObjectChange struct {
	Kind             string `json:"kind"`
	FailedBefore     int    `json:"failedBefore"`
	FailedAfter      int    `json:"failedAfter"`
	BehindSpecBefore int    `json:"behindSpecBefore"`
	BehindSpecAfter  int    `json:"behindSpecAfter"`
}

// Worst is the highest severity among the appeared findings, "" when none appeared.
func (d Diff) Worst() findings.Severity { return findings.Worst(d.Appeared) }
