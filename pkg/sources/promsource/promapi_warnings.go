package promsource

import (
	"fmt"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
)

// MaxWarnings bounds the warnings kept of one answer; those past it are counted in one more.
const MaxWarnings = 10

// boundWarnings keeps the first MaxWarnings of an answer's warnings, each as an excerpt
// (bounded, credentials masked, control characters escaped), and says how many more there
// were. Blank warnings are dropped.
func boundWarnings(ws []string) []string {
	out := make([]string, 0, min(len(ws), MaxWarnings+1))
	more := 0
	for _, w := range ws {
		e := redact.ExcerptString(w)
		if e == "" {
			continue
		}
		if len(out) == MaxWarnings {
			more++
			continue
		}
		out = append(out, e)
	}
	if more > 0 {
		out = append(out, fmt.Sprintf("and %d more warnings of the same answer", more))
	}
	return out
}

// PartialWarning reports whether a warning of an answer says that the server answered
// without some of its stores: Thanos Query (partial_response: a store or sidecar that failed)
// and Mimir warn so. Prometheus' own warnings about the query (PromQL annotations, which start
// with "PromQL ") are not, and neither is the count of the warnings past MaxWarnings.
func PartialWarning(w string) bool {
	return !strings.HasPrefix(w, "PromQL ") && !(strings.HasPrefix(w, "and ") && strings.HasSuffix(w, " more warnings of the same answer"))
}
