// This file judges a service-level indicator against its objective from counts: n samples
// in the window, how many were surely over the objective and how many possibly (a histogram's
// buckets bracket it). It knows no cluster and no metrics, only the verdict rule: a finding
// needs evidence beyond chance, so that a healthy controller's few slow samples never raise
// one.

package capacity

import (
	"fmt"
	"math"
	"strconv"
)

// Verdict is what the window says of an objective.
type Verdict string

const (
	// Breaks: more samples were surely over the objective than its budget allows, by more
	// than chance explains.
	Breaks Verdict = "breaks"
	// Holds: enough samples for the quantile, and at most the budget possibly over.
	Holds Verdict = "holds"
	// Unknown: enough samples, but the counts cannot tell (the buckets bracket the objective
	// too widely, or the excess is within chance).
	Unknown Verdict = "unknown"
	// NotJudged: too few samples, or none read; Why says which.
	NotJudged Verdict = "not-judged"
)

// Counts are one indicator's samples over the window.
type Counts struct {
	// N samples; Over surely above the objective; OverAtMost possibly above it (Over when the
	// objective is a bucket's bound). NaN when unknown.
	N, Over, OverAtMost float64
}

// minOver is the fewest samples surely over the objective that can break it: one or two slow
// samples are chance, whatever the share.
const minOver = 3

// Judge is the verdict on counts for an objective at quantile q (0.99: a budget of 1 % of the
// samples over), and why, in words, when it is not Breaks or Holds:
//   - Breaks when Over/N > budget, Over > N·budget + 2√(N·budget) (a Poisson count's upper
//     margin, about two standard deviations) and Over >= 3;
//   - Holds when N >= ⌈1/budget⌉ (a p99 needs 100 samples) and OverAtMost/N <= budget;
//   - Unknown when there are that many samples and neither holds;
//   - NotJudged otherwise.
func Judge(c Counts, q float64) (Verdict, string) {
	budget := 1 - q
	if !(budget > 0) || math.IsNaN(c.N) {
		return NotJudged, "no samples read"
	}
	need := math.Ceil(1/budget - 1e-9)
	if !(c.N > 0) {
		return NotJudged, fmt.Sprintf("no samples in the window, a p%s needs %.0f", quantileName(q), need)
	}
	expected := c.N * budget
	if c.Over/c.N > budget && c.Over > expected+2*math.Sqrt(expected) && c.Over >= minOver {
		return Breaks, ""
	}
	if c.N < need {
		return NotJudged, fmt.Sprintf("%.0f samples in the window, a p%s needs %.0f", c.N, quantileName(q), need)
	}
	if math.IsNaN(c.OverAtMost) || math.IsNaN(c.Over) {
		return Unknown, "the buckets do not say how many were over the objective"
	}
	if c.OverAtMost/c.N <= budget {
		return Holds, ""
	}
	if c.Over/c.N > budget {
		return Unknown, fmt.Sprintf("%.0f of %.0f over: more than the budget of %s, but within chance", c.Over, c.N, strconv.FormatFloat(math.Round(expected*10)/10, 'f', -1, 64))
	}
	return Unknown, fmt.Sprintf("%.0f to %.0f of %.0f over: the buckets bracket the objective too widely to tell", c.Over, c.OverAtMost, c.N)
}

// quantileName is "99" for 0.99, "99.9" for 0.999.
func quantileName(q float64) string {
	return fmt.Sprintf("%g", math.Round(q*100000)/1000)
}
