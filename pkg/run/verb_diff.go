package run

import (
	"context"
	"errors"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/diff"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/localfile"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/open"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/snapshot"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// Diff reads the two sides of `diff`: a snapshot's report is made from its pages as
// `report --from-snapshot` makes it with no flag (default thresholds, the ignore file of the
// current folder when present), so that the two commands agree on a file. Both sides are
// read on one clock, started when the Diff is made: --deadline bounds the two together.
type Diff struct {
	cfg    ReportConfig
	bounds open.Spec
	clock  source.Clock
}

// NewDiff makes the report's configuration, the reading of a snapshot bounded as bounds
// says, and starts the run's clock (now: the wall clock, nil for time.Now); its error is the
// ignore file's (an error in the command line).
func NewDiff(bounds open.Spec, now func() time.Time) (*Diff, error) {
	cfg, err := NewReportConfig(ReportOptions{Thresholds: findings.DefaultThresholds()})
	if err != nil {
		return nil, err
	}
	cfg.Read = source.Options{Interval: bounds.Interval, Timeout: bounds.Timeout, Concurrency: bounds.Concurrency}
	return &Diff{cfg: cfg, bounds: bounds, clock: source.StartClock(now, bounds.Deadline)}, nil
}

// Load reads both sides (diff.Load), within the run's deadline; it returns the sides read
// before an error too. A FIFO or pipe that gave nothing in time says so as the run's
// deadline error.
func (d *Diff) Load(ctx context.Context, before, after string) ([]diff.Loaded, error) {
	ctx, cancel := d.clock.Bound(ctx)
	defer cancel()
	var out []diff.Loaded
	for _, path := range []string{before, after} {
		l, err := diff.Load(ctx, path, d.reportOf)
		if wait := (*localfile.WaitError)(nil); errors.As(err, &wait) {
			err = source.Stopped(ctx, err, "before both files were read", "or start the writer first")
		}
		if err != nil {
			return out, err
		}
		out = append(out, l)
	}
	return out, nil
}

// reportOf makes the report of a snapshot already read as `report --from-snapshot` makes it:
// the same plan, opened from the snapshot (open.Snapshot), run through the same stages on
// the same clock.
func (d *Diff) reportOf(ctx context.Context, s *snapshot.Snapshot) (view.Report, error) {
	res, err := newReport(openedOf(open.Snapshot(s, d.bounds), nil, d.clock), d.cfg).Run(ctx)
	if err != nil {
		return view.Report{}, err
	}
	return res.Report, nil
}
