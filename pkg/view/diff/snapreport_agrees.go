package diff

import (
	"bytes"
	"encoding/json"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// Agrees reports whether stored, a snapshot's report.json, says what made, the report made
// from its pages, says: the same report once both are read into the model, so that layout
// and fields this build does not know do not count. A report.json that is not a report
// disagrees.
func Agrees(stored []byte, made view.Report) bool {
	var r view.Report
	if err := json.Unmarshal(stored, &r); err != nil || r.Kind != view.ReportKind {
		return false
	}
	a, errA := json.Marshal(r)
	b, errB := json.Marshal(made)
	return errA == nil && errB == nil && bytes.Equal(a, b)
}
