package open

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/engine"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/localfile"
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
	return Snapshot(snap, s), nil
}

// Snapshot is the source of a snapshot already read: its pages and cluster answers replayed,
// in the scope it was taken in, its time the time of the run, read as s bounds it. `report
// --from-snapshot` and `diff` read a snapshot through it, so the two agree on a file.
func Snapshot(snap *snapshot.Snapshot, s Spec) Opened {
	taken, sc := snap.Manifest.Taken, snap.Manifest.Scope
	return Opened{Source: snapshot.NewReplay(snap), Scope: engine.Scope{Cluster: sc.Cluster, Namespace: sc.Namespace, Selector: sc.Selector},
		Read: readOptions(s), Now: func() time.Time { return taken }}
}
