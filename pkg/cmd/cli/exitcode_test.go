package cli

import (
	"errors"
	"fmt"
	"testing"
)

func TestCodeFor(t *testing.T) {
	for _, tc := range []struct {
		name     string
		err      error
		wantCode int
		wantMsg  string
	}{
		{"nil", nil, ExitOK, ""},
		{"plain error", errors.New("boom"), ExitError, "boom"},
		{"usage", UsageError("bad %s", "flag"), ExitUsage, "bad flag"},
		{"wrapped usage", fmt.Errorf("x: %w", UsageError("y")), ExitUsage, "y"},
		{"code only", &ExitCodeError{Code: ExitFindings}, ExitFindings, ""},
		{"engine usage", fmt.Errorf("t: %w", usageMarked{}), ExitUsage, "t: pages"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, msg := CodeFor(tc.err)
			if code != tc.wantCode || msg != tc.wantMsg {
				t.Errorf("CodeFor(%v) = %d, %q; want %d, %q", tc.err, code, msg, tc.wantCode, tc.wantMsg)
			}
		})
	}
}

// usageMarked is an engine's error in the command line.
type usageMarked struct{}

func (usageMarked) Error() string { return "pages" }
func (usageMarked) Usage() bool   { return true }
