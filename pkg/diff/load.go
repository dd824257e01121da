package diff

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/report"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/snapshot"
)

// maxReportBytes bounds a `report -o json` file read.
const maxReportBytes = 64 << 20

// Load reads the report of a snapshot (the one its run made) or of a `report -o json` file.
func Load(path string) (report.Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return report.Report{}, fmt.Errorf("cannot read %s: %w", path, err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var doc []byte
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		s, err := snapshot.Load(path, snapshot.DefaultLimits())
		if err != nil {
			return report.Report{}, err
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
