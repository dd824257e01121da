package cmd

import (
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/run"
)

// snapshotSpec checks the flags given with --from-snapshot and says the snapshot's source.
func (f *SourceFlags) snapshotSpec(args []string) (run.Spec, error) {
	if len(args) > 0 || len(f.URLs) > 0 || len(f.Files) > 0 {
		return run.Spec{}, cli.UsageError("--from-snapshot reads what the snapshot holds: give no TARGET, --url or --from-file with it")
	}
	s := f.bounds()
	s.FromSnapshot = f.FromSnapshot
	return s, nil
}
