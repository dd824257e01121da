package view

import "github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"

// Summary counts what a report read and found, and says, controller by controller, what is
// wrong and what to change.
type Summary struct {
	Targets  int `json:"targets"`
	Read     int `json:"read"`
	Critical int `json:"critical"`
	Warning  int `json:"warning"`
	Info     int `json:"info"`
	// Verdict counts the controllers in trouble and the findings, in words.
	Verdict string `json:"verdict"`
	// InTrouble are the controllers with a warning or critical finding, worst first (Trouble):
	// one per target and queue, or per target for findings about no queue. Empty when none.
	InTrouble []Trouble `json:"inTrouble"`
	// Healthy, when no controller is in trouble and something was read, says so with what was
	// checked: "3 targets, 12 queues read over 30s; no warnings".
	Healthy string `json:"healthy,omitempty"`
	// Suppressed counts the warning and critical findings an ignore file or annotation left
	// out, which would have changed the verdict; SuppressedBy names where they were left out
	// (the ignore file, the annotation). The verdict says both.
	Suppressed   int      `json:"suppressed,omitempty"`
	SuppressedBy []string `json:"suppressedBy,omitempty"`
}

// Trouble is one controller in trouble, as the report's summary says it: what is wrong with
// its key figure, the cause other findings on it name, and the change to make.
type Trouble struct {
	// Severity is that of its worst finding.
	Severity findings.Severity `json:"severity"`
	Target   string            `json:"target"`
	// Queue is the queue (or controller) the findings are about; "" for the whole target.
	Queue string `json:"queue,omitempty"`
	// What is wrong, with the key figure: "workers saturated, queue p99 9.2s, 138 waiting".
	What string `json:"what"`
	// Cause is what another finding on the same target or queue names as the cause (a
	// webhook, an API Priority and Fairness level, the client's rate limiter, where the workers
	// are blocked, the objects that fail); "" when none does.
	Cause string `json:"cause,omitempty"`
	// Context is what the log says failed on a stuck or saturated queue when nothing names a
	// cause: the objects it names may be why, or may have stopped failing because the worker
	// blocked ("log \"Reconciler error\" on shop/app x17"); "" otherwise.
	Context string `json:"context,omitempty"`
	// Change is the change to make, with the current and the advised value where the report
	// has them ("MaxConcurrentReconciles 1 -> 3", "--concurrent-replicaset-syncs 5 -> 9"),
	// else the first sentence of the recommendation of the finding that names it.
	Change string `json:"change"`
	// ChangeCode is the code of the finding Change comes from, the one to explain: a cause
	// about the whole target is not among Codes.
	ChangeCode string `json:"changeCode,omitempty"`
	// Codes are its findings' codes, in the report's order.
	Codes []string `json:"codes"`
}
