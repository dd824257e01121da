package render

import (
	"fmt"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// partialLine says, under the verdict, that the server answered partially and which clusters
// it lacks: a report over a partial answer is never shown as the whole fleet. "" when the
// answers were whole.
func partialLine(r view.Report) string {
	p := r.Partial
	if p == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("Partial: Prometheus answered partially, some of its stores did not answer")
	if len(p.Warnings) > 0 {
		fmt.Fprintf(&b, " (\"%s\"", p.Warnings[0])
		if more := len(p.Warnings) - 1; more > 0 {
			fmt.Fprintf(&b, ", and %d more", more)
		}
		b.WriteString(")")
	}
	switch {
	case p.Whole:
		fmt.Fprintf(&b, ": the stores of %s %s that did not answer have replicas that did, no series are missing",
			map[bool]string{true: "cluster", false: "clusters"}[len(p.ReplicatedClusters) == 1], strings.Join(p.ReplicatedClusters, ", "))
	case len(p.MissingClusters) > 0:
		fmt.Fprintf(&b, ": no series of %s %s, this report is not of the whole fleet",
			map[bool]string{true: "cluster", false: "clusters"}[len(p.MissingClusters) == 1], strings.Join(p.MissingClusters, ", "))
	default:
		b.WriteString(": series may be missing (which clusters cannot be told), this report may not be of every target")
	}
	return b.String()
}
