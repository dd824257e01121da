package snapshot

import (
	"bytes"
	"context"
	"testing"
)

// readBack writes what rec recorded as a snapshot file and reads the file back with the
// default limits, as `report --from-snapshot` does.
func readBack(t *testing.T, ctx context.Context, rec *Recorder) *Snapshot {
	t.Helper()
	var file bytes.Buffer
	if err := rec.Snapshot(ctx, Manifest{}).Write(&file); err != nil {
		t.Fatal(err)
	}
	back, err := Read(bytes.NewReader(file.Bytes()), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	return back
}
