package findings

import (
	"fmt"
	"math"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
)

// Basis values of an Evidence: what a figure was measured over.
const (
	BasisWindow     = "window"
	BasisSinceStart = "since start"
)

// figure is a quantile with what it rests on: n observations (waits, items), over the window
// or since the process started.
type figure struct {
	value      float64
	atLeast    bool
	n          float64
	noun       string // "wait", "item"
	sinceStart bool
}

// String is the quantile with its basis: "40s from 4 waits since start", "1.2s from 310 waits".
func (f figure) String() string {
	s := quantile(f.value, f.atLeast)
	if math.IsNaN(f.n) || math.IsNaN(f.value) {
		return s
	}
	basis := printable.Plural(int(f.n), f.noun)
	if f.sinceStart {
		basis += " since start"
	}
	return s + " from " + basis
}

// evidence is the figure as evidence, its count and basis as data too.
func (f figure) evidence(name, threshold string) Evidence {
	e := Evidence{Name: name, Value: f.String(), Threshold: threshold, Basis: BasisWindow}
	if f.sinceStart {
		e.Basis = BasisSinceStart
	}
	if !math.IsNaN(f.n) {
		e.Observations = f.n
	}
	return e
}

// weak says why a finding that rests on f alone can be no more than info: counted since the
// process started (a start-up burst, an incident long past), or from fewer than minEvents
// observations in the window; "" when f is strong enough.
func (f figure) weak(minEvents float64) string {
	switch {
	case f.sinceStart:
		return "since the process started"
	case !(f.n >= minEvents):
		return fmt.Sprintf("from %s, fewer than minEvents (%g)", printable.Plural(int(nanZero(f.n)), f.noun), minEvents)
	}
	return ""
}

// weakSinceStart is weak for a figure of items that are each evidence alone (a slow
// reconcile is slow however few finished): only counts since the process started are too
// little.
func (f figure) weakSinceStart() string {
	if f.sinceStart {
		return "since the process started"
	}
	return ""
}

// atMostInfo makes f info when why (figure.weak) says its figure cannot carry more, saying so
// in its summary.
func atMostInfo(f Finding, why string) Finding {
	if why == "" || f.Severity == Info {
		return f
	}
	f.Summary += " (" + why + ": too little to judge; read over a longer --interval)"
	return f.withSeverity(Info)
}
