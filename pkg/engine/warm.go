package engine

import (
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/knobs"
)

// warmTables reads the catalog of findings and the knobs' table, which are parsed from their
// YAML on first use (milliseconds each, more than a small fleet's reading): Report starts it on
// another goroutine, so that they are parsed while the targets are found and read rather than
// after. Both are read once whoever asks first (sync.OnceValue): warming changes no result.
// A table that does not parse (a build's bug) panics here unseen: sync.OnceValue panics
// again for the reader that needs it, where the command reports it as before.
func warmTables() {
	defer func() { _ = recover() }()
	findings.Catalog()
	knobs.Families()
}
