package sourceflags

import (
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/exitcode"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/engine"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/snapshot"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/source"
)

// fromSnapshot is the source of --from-snapshot: the snapshot's targets, pages and cluster
// answers, its scope, and its time as the time of the run. It reads each member within
// --max-body-bytes.
func (f *Flags) fromSnapshot(args []string) (Resolved, error) {
	if len(args) > 0 || len(f.URLs) > 0 || len(f.Files) > 0 {
		return Resolved{}, exitcode.UsageError("--from-snapshot reads what the snapshot holds: give no TARGET, --url or --from-file with it")
	}
	lim := snapshot.DefaultLimits()
	if f.MaxBodyBytes > lim.MemberBytes {
		lim.MemberBytes = f.MaxBodyBytes
	}
	s, err := snapshot.Load(f.FromSnapshot, lim)
	if err != nil {
		return Resolved{}, exitcode.Failure(err)
	}
	sc := s.Manifest.Scope
	taken := s.Manifest.Taken
	return Resolved{
		Source: snapshot.NewReplay(s),
		Scope:  engine.Scope{Cluster: sc.Cluster, Namespace: sc.Namespace, Selector: sc.Selector},
		Read:   source.Options{Interval: f.Interval, Timeout: f.Timeout, Concurrency: f.Concurrency, Deadline: f.Deadline},
		Now:    func() time.Time { return taken },
	}, nil
}
