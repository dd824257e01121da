package cmd

import "github.com/ctrldiag/kubectl-ctrldiag/pkg/run"

// Bounds is a Spec that says only the bounds of the reading the flags give (interval,
// timeout, page size, concurrency, deadline): for a command that reads what it is handed
// (diff) with the source flags' defaults.
func (f *SourceFlags) Bounds() run.Spec { return f.bounds() }
