package run

import (
	"context"
	"errors"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/localfile"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/snapshot"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view/diff"
)

// DiffResult is what `diff` prints: the comparison, and the warnings of the two sides.
type DiffResult struct {
	Diff     view.Diff
	Warnings []string
}

// Diff reads the two sides of `diff` and compares them (diff.Compare). A snapshot's report is
// made from its pages as `report --from-snapshot` makes it with no flag (default thresholds,
// the ignore file of the current folder when present), so that the two commands agree on a
// file. Both sides are read on one clock, started here: bounds.Deadline bounds the two
// together. On an error the result holds the warnings of the sides read before it; an error
// of the ignore file is one in the command line.
func Diff(ctx context.Context, bounds Spec, before, after string) (*DiffResult, error) {
	cfg, err := newReportConfig(ReportOptions{Thresholds: findings.DefaultThresholds()})
	if err != nil {
		return nil, err
	}
	cfg.Read = source.Options{Interval: bounds.Interval, Timeout: bounds.Timeout, Concurrency: bounds.Concurrency}
	d := differ{cfg: cfg, bounds: bounds, clock: source.StartClock(nil, bounds.Deadline)}
	sides, err := d.load(ctx, before, after)
	res := &DiffResult{}
	for _, l := range sides {
		if l.Warning != "" {
			res.Warnings = append(res.Warnings, l.Warning)
		}
	}
	if err != nil {
		return res, err
	}
	res.Diff = diff.Compare(sides[0].Report, sides[1].Report, before, after)
	return res, nil
}

// differ reads the sides of one diff on one clock.
type differ struct {
	cfg    ReportConfig
	bounds Spec
	clock  source.Clock
}

// load reads both sides (diff.Load), within the run's deadline; it returns the sides read
// before an error too. A FIFO or pipe that gave nothing in time says so as the run's
// deadline error.
func (d differ) load(ctx context.Context, before, after string) ([]diff.Loaded, error) {
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
// the same plan, opened from the snapshot (FromSnapshot), run through the same stages on
// the same clock.
func (d differ) reportOf(ctx context.Context, s *snapshot.Snapshot) (view.Report, error) {
	r := openedOf(FromSnapshot(s, d.bounds), nil, d.clock)
	res, err := ReportWith(ctx, withSource(d.cfg, r), r.env)
	if err != nil {
		return view.Report{}, err
	}
	return res.Report, nil
}
