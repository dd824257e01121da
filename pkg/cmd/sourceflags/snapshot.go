package sourceflags

import (
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/exitcode"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/open"
)

// snapshotSpec checks the flags given with --from-snapshot and says the snapshot's source.
func (f *Flags) snapshotSpec(args []string) (open.Spec, error) {
	if len(args) > 0 || len(f.URLs) > 0 || len(f.Files) > 0 {
		return open.Spec{}, exitcode.UsageError("--from-snapshot reads what the snapshot holds: give no TARGET, --url or --from-file with it")
	}
	s := f.bounds()
	s.FromSnapshot = f.FromSnapshot
	return s, nil
}
