package scrape

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// A saved page that cannot be read says why once, after the target's name (the first path):
// no "open PATH:" repeating it; the AFTER of BEFORE,AFTER is named, as it is not the target's.
func TestFileSourceErrorsSayThePathOnce(t *testing.T) {
	dir := t.TempDir()
	before := filepath.Join(dir, "before.prom")
	if err := os.WriteFile(before, []byte(page), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "nope.prom")
	_, err := (&FileSource{Paths: []string{missing}}).Fetch(context.Background())
	if want := "cannot read the saved page: no such file or directory"; err == nil || err.Error() != want {
		t.Errorf("missing page: %v, want %q", err, want)
	}
	f := &FileSource{Paths: []string{before, missing}, MaxBodyBytes: 1 << 20}
	if _, err := f.Fetch(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, err = f.Fetch(context.Background())
	if want := "cannot read the saved page " + missing + ": no such file or directory"; err == nil || err.Error() != want {
		t.Errorf("missing AFTER page: %v, want %q", err, want)
	}
}
