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
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/report"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/snapshot"
)

// maxReportBytes bounds a `report -o json` file read.
const maxReportBytes = 64 << 20

// Load reads the report of a snapshot (the one its run made) or of a `report -o json` file.
// A FIFO or a pipe is opened and read within ctx (localfile.Open), and read once.
func Load(ctx context.Context, path string) (report.Report, error) {
	f, err := localfile.Open(ctx, path)
	if err != nil {
		return report.Report{}, fmt.Errorf("cannot read %s: %w", path, err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var doc []byte
	magic, err := br.Peek(2)
	if wait := (*localfile.WaitError)(nil); errors.As(err, &wait) {
		return report.Report{}, fmt.Errorf("cannot read %s: %w", path, err)
	}
	if err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		s, err := snapshot.Read(br, snapshot.DefaultLimits())
		if err != nil {
			return report.Report{}, fmt.Errorf("%s: %w", path, err)
		}
		if s.Report == nil {
			return report.Report{}, fmt.Errorf("%s: the snapshot holds no report", path)
		}
		doc = s.Report
	} else {
		if doc, err = io.ReadAll(io.LimitReader(br, maxReportBytes+1)); err != nil {
			return report.Report{}, fmt.Errorf("cannot read %s: %w", path, err)
		}
		if len(doc) > maxReportBytes {
			return report.Report{}, fmt.Errorf("%s: larger than %d bytes, not a report", path, maxReportBytes)
		}
	}
	var r report.Report
	dec := json.NewDecoder(bytes.NewReader(doc))
	if err := dec.Decode(&r); err != nil {
		return report.Report{}, fmt.Errorf("%s: neither a snapshot nor a `report -o json` file: %v", path, err)
	}
	if r.Kind != report.Kind {
		return report.Report{}, errors.New(path + ": neither a snapshot nor a `report -o json` file (kind " + fmt.Sprintf("%q", r.Kind) + ")")
	}
	return r, nil
}
