package diff

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/localfile"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/snapshot"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/view"
)

// maxReportBytes bounds a `report -o json` file read.
const maxReportBytes = 64 << 20

// Loaded is one side of a diff as read.
type Loaded struct {
	Report view.Report
	// Warning, when set, says that the snapshot's stored report disagrees with its pages and
	// was not used.
	Warning string
}

// ReportOf makes the report of a snapshot from its pages, as `report --from-snapshot` makes
// it (pkg/run gives it).
type ReportOf func(context.Context, *snapshot.Snapshot) (view.Report, error)

// Load reads the report of a `report -o json` file, or makes the report of a snapshot from
// its pages with reportOf, so that `diff` and `report --from-snapshot` say the same of one
// file; a stored report.json that disagrees is not used, and Warning says so. A FIFO or a
// pipe is opened and read within ctx (localfile.Open), and read once.
func Load(ctx context.Context, path string, reportOf ReportOf) (Loaded, error) {
	f, err := localfile.Open(ctx, path)
	if err != nil {
		return Loaded{}, fmt.Errorf("cannot read %s: %w", path, err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	magic, err := br.Peek(2)
	if wait := (*localfile.WaitError)(nil); errors.As(err, &wait) {
		return Loaded{}, fmt.Errorf("cannot read %s: %w", path, err)
	}
	if err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		s, err := snapshot.Read(br, snapshot.DefaultLimits())
		if err != nil {
			return Loaded{}, fmt.Errorf("%s: %w", path, err)
		}
		return fromSnapshot(ctx, path, s, reportOf)
	}
	doc, err := io.ReadAll(io.LimitReader(br, maxReportBytes+1))
	if err != nil {
		return Loaded{}, fmt.Errorf("cannot read %s: %w", path, err)
	}
	if len(doc) > maxReportBytes {
		return Loaded{}, fmt.Errorf("%s: larger than %d bytes, not a report", path, maxReportBytes)
	}
	var r view.Report
	dec := json.NewDecoder(bytes.NewReader(doc))
	if err := dec.Decode(&r); err != nil {
		return Loaded{}, fmt.Errorf("%s: neither a snapshot nor a `report -o json` file: %v", path, err)
	}
	if r.Kind != view.ReportKind {
		return Loaded{}, errors.New(path + ": neither a snapshot nor a `report -o json` file (kind " + fmt.Sprintf("%q", r.Kind) + ")")
	}
	return Loaded{Report: r}, nil
}

// fromSnapshot makes the report of s from its pages and checks the stored one against it.
func fromSnapshot(ctx context.Context, path string, s *snapshot.Snapshot, reportOf ReportOf) (Loaded, error) {
	rep, err := reportOf(ctx, s)
	if err != nil {
		return Loaded{}, fmt.Errorf("%s: %w", path, err)
	}
	out := Loaded{Report: rep}
	if s.Report != nil && !Agrees(s.Report, rep) {
		out.Warning = path + ": the report the snapshot stores (" + snapshot.ReportName + ") disagrees with its pages and was not used: " +
			"compared the report its pages give, as `report --from-snapshot` makes it (the stored one was edited, or made with other flags or by another version)"
	}
	return out, nil
}
