package report

import (
	"errors"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/access"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/target"
)

// apiServerDenied is the note of a report whose user may not read the API server's /metrics.
// A Role cannot grant it (it is no resource of a namespace), so a user confined to their
// namespaces is always refused: that is a note saying what would read it and how to skip it,
// never a warning or a failed target, or every report of their own healthy controllers would
// fail --fail-on warning.
const apiServerDenied = "the API server's /metrics was not read: you may not get it, and only a ClusterRole " +
	"can grant it (rule: nonResourceURLs [\"/metrics\"], verbs [\"get\"]); --include-apiserver=false skips it"

// withoutDeniedAPIServer takes out of ts the API server's target when the user may not read
// it, and says so in a note.
func withoutDeniedAPIServer(ts []model.Target) ([]model.Target, []string) {
	var notes []string
	kept := ts[:0]
	for _, t := range ts {
		var denied *access.Error
		if !t.Read() && t.Target.Kind == target.KindAPIServer && errors.As(t.Err, &denied) {
			notes = append(notes, apiServerDenied)
			continue
		}
		kept = append(kept, t)
	}
	return kept, notes
}
