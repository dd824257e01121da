package pipeline

import (
	"context"
	"errors"
	"fmt"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/diff"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/engine"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/findings"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/localfile"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/open"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/snapshot"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/source"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// Diff reads the two sides of `diff`: a snapshot's report is made from its pages as
// `report --from-snapshot` makes it with no flag (default thresholds, the ignore file of the
// current folder when present), so that the two commands agree on a file.
type Diff struct {
	cfg    engine.ReportConfig
	bounds open.Spec
}

// NewDiff makes the report's configuration, the reading of a snapshot bounded as bounds
// says; its error is the ignore file's (an error in the command line).
func NewDiff(bounds open.Spec) (*Diff, error) {
	cfg, err := engine.NewReport(engine.ReportOptions{Thresholds: findings.DefaultThresholds()})
	if err != nil {
		return nil, err
	}
	cfg.Read = source.Options{Interval: bounds.Interval, Timeout: bounds.Timeout, Concurrency: bounds.Concurrency, Deadline: bounds.Deadline}
	return &Diff{cfg: cfg, bounds: bounds}, nil
}

// Load reads one side (diff.Load); a FIFO or pipe that gave nothing in time says what bounds
// the wait.
func (d *Diff) Load(ctx context.Context, path string) (diff.Loaded, error) {
	l, err := diff.Load(ctx, path, d.reportOf)
	if wait := (*localfile.WaitError)(nil); errors.As(err, &wait) {
		err = fmt.Errorf("%w: reading is bounded by --deadline %s; start the writer first, or raise --deadline", err, d.bounds.Deadline)
	}
	return l, err
}

// reportOf makes the report of a snapshot already read as `report --from-snapshot` makes it:
// the same plan, opened from the snapshot (open.Snapshot), run through the same stages.
func (d *Diff) reportOf(ctx context.Context, s *snapshot.Snapshot) (view.Report, error) {
	res, err := newReport(openedOf(open.Snapshot(s, d.bounds), nil), d.cfg).Run(ctx)
	if err != nil {
		return view.Report{}, err
	}
	return res.Report, nil
}
