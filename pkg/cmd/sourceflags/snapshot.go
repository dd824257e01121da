package sourceflags

import (
	"context"
	"errors"
	"fmt"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/exitcode"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/localfile"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/snapreport"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/snapshot"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/source"
)

// fromSnapshot is the source of --from-snapshot: the snapshot's targets, pages and cluster
// answers, its scope, and its time as the time of the run. It reads each member within
// --max-body-bytes, and a FIFO or pipe within --deadline.
func (f *Flags) fromSnapshot(args []string) (Resolved, error) {
	if len(args) > 0 || len(f.URLs) > 0 || len(f.Files) > 0 {
		return Resolved{}, exitcode.UsageError("--from-snapshot reads what the snapshot holds: give no TARGET, --url or --from-file with it")
	}
	lim := snapshot.DefaultLimits()
	if f.MaxBodyBytes > lim.MemberBytes {
		lim.MemberBytes = f.MaxBodyBytes
	}
	// A FIFO or pipe given as the snapshot is read within --deadline, like the targets.
	ctx := context.Background()
	if f.Deadline > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, f.Deadline)
		defer cancel()
	}
	s, err := snapshot.Load(ctx, f.FromSnapshot, lim)
	var wait *localfile.WaitError
	if errors.As(err, &wait) {
		err = fmt.Errorf("%w: reading the snapshot is bounded by --deadline %s; start the writer first, or raise --deadline", err, f.Deadline)
	}
	if err != nil {
		return Resolved{}, exitcode.Failure(err)
	}
	// diff reads a snapshot through the same snapreport.Env, so the two agree on a file.
	env, scope := snapreport.Env(s)
	return Resolved{
		Source: env.Source,
		Scope:  scope,
		Read:   source.Options{Interval: f.Interval, Timeout: f.Timeout, Concurrency: f.Concurrency, Deadline: f.Deadline},
		Now:    env.Now,
	}, nil
}
