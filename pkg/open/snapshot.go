package open

import (
	"context"
	"errors"
	"fmt"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/localfile"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/snapreport"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/snapshot"
)

// openSnapshot replays a snapshot: its targets, pages and cluster answers, its scope, and its
// time as the time of the run. It reads each member within MaxBodyBytes, and a FIFO or pipe
// within Deadline.
func openSnapshot(s Spec) (Opened, error) {
	lim := snapshot.DefaultLimits()
	if s.MaxBodyBytes > lim.MemberBytes {
		lim.MemberBytes = s.MaxBodyBytes
	}
	ctx := context.Background()
	if s.Deadline > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.Deadline)
		defer cancel()
	}
	snap, err := snapshot.Load(ctx, s.FromSnapshot, lim)
	var wait *localfile.WaitError
	if errors.As(err, &wait) {
		err = fmt.Errorf("%w: reading the snapshot is bounded by --deadline %s; start the writer first, or raise --deadline", err, s.Deadline)
	}
	if err != nil {
		return Opened{}, failure{err}
	}
	// diff reads a snapshot through the same snapreport.Env, so the two agree on a file.
	env, scope := snapreport.Env(snap)
	return Opened{Source: env.Source, Scope: scope, Read: readOptions(s), Now: env.Now}, nil
}
