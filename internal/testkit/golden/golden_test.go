package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// recorder is a testing.TB that keeps whether the test failed.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Fatalf(string, ...any) { r.failed = true }

// With update the file is written; without, the same bytes pass and others fail, naming the
// first line that differs.
func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "out.txt")
	Check(t, path, []byte("a\nb\n"), true, "-update")
	if b, err := os.ReadFile(path); err != nil || string(b) != "a\nb\n" {
		t.Fatalf("update wrote %q, %v", b, err)
	}
	same := &recorder{TB: t}
	Check(same, path, []byte("a\nb\n"), false, "-update")
	other := &recorder{TB: t}
	Check(other, path, []byte("a\nc\n"), false, "-update")
	if same.failed || !other.failed {
		t.Errorf("the same bytes failed: %v; other bytes failed: %v", same.failed, other.failed)
	}
	if d := FirstDiff([]byte("a\nb\n"), []byte("a\nc\n")); d != "line 2\n- b\n+ c" {
		t.Errorf("FirstDiff: %q", d)
	}
}
