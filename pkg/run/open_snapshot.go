package run

import (
	"context"
	"errors"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/localfile"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/snapshot"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
)

// openSnapshot replays a snapshot: its targets, pages and cluster answers, its scope, and its
// time as the time of the run. It reads each member within MaxBodyBytes, and a FIFO or pipe
// within the run's deadline (clock).
func openSnapshot(s Spec, clock source.Clock) (Opened, error) {
	lim := snapshot.DefaultLimits()
	if s.MaxBodyBytes > lim.MemberBytes {
		lim.MemberBytes = s.MaxBodyBytes
	}
	ctx, cancel := clock.Bound(context.Background())
	defer cancel()
	snap, err := LoadSnapshot(ctx, s.FromSnapshot, lim)
	if err != nil {
		return Opened{}, failure{err}
	}
	return FromSnapshot(snap, s), nil
}

// LoadSnapshot reads the snapshot at path (snapshot.Load) within ctx, the run's: a FIFO or
// pipe that gave nothing before the run's deadline says so as the run's deadline error.
func LoadSnapshot(ctx context.Context, path string, lim snapshot.Limits) (*snapshot.Snapshot, error) {
	snap, err := snapshot.Load(ctx, path, lim)
	if wait := (*localfile.WaitError)(nil); errors.As(err, &wait) {
		err = source.Stopped(ctx, err, "before the snapshot was read", "or start the writer first")
	}
	return snap, err
}

// FromSnapshot is the source of a snapshot already read: its pages and cluster answers replayed,
// in the scope it was taken in, its time the time of the run, read as s bounds it. `report
// --from-snapshot` and `diff` read a snapshot through it, so the two agree on a file.
func FromSnapshot(snap *snapshot.Snapshot, s Spec) Opened {
	taken, sc := snap.Manifest.Taken, snap.Manifest.Scope
	return Opened{Source: snapshot.NewReplay(snap), Scope: source.Scope{Cluster: sc.Cluster, Namespace: sc.Namespace, Selector: sc.Selector},
		Read: readOptions(s), Now: func() time.Time { return taken }}
}
