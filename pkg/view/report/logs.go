package report

import (
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// logRows are the logs read, in the targets' order.
func logRows(targets []model.Target) []view.Log {
	var out []view.Log
	for _, t := range targets {
		if t.Log != nil {
			out = append(out, view.Log{Target: t.ID(), Log: *t.Log})
		}
	}
	return out
}
