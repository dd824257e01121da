package run

import (
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// partialView is what a source said of a partial answer, as the report shows it; nil when
// the answers were whole.
func partialView(p *source.Partial) *view.Partial {
	if p == nil {
		return nil
	}
	return &view.Partial{MissingClusters: append([]string{}, p.MissingClusters...), ReplicatedClusters: append([]string(nil), p.ReplicatedClusters...),
		Whole: p.Whole(), Warnings: append([]string{}, p.Warnings...)}
}
