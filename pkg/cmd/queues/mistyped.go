package queues

import (
	"fmt"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/health"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sample"
)

// mistypedWarnings says, per target, which families the queue figures read were declared with
// a TYPE that kept their values out, so that a "-" in the table has a reason on stderr.
func mistypedWarnings(results []sample.Result) []string {
	var out []string
	for _, r := range results {
		if len(r.Samples) == 0 {
			continue
		}
		for _, m := range health.MistypedFamilies(r.Samples[len(r.Samples)-1].Families) {
			out = append(out, fmt.Sprintf("%s: %s is declared TYPE %s but is read as %s, so the figures drawn from it show as \"-\" (finding CD103 of `kubectl ctrldiag report`)",
				r.Target, m.Family, m.Declared, m.Read))
		}
	}
	return out
}
