package scrape

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// A saved page that cannot be read says why once, after the target's name (the last page's
// base name): no "open PATH:" repeating it; the path is named unless the target's name is
// all of it (a page in the working directory).
func TestFileSourceErrorsSayThePathOnce(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	_, err := (&FileSource{Paths: []string{"here.prom"}}).Fetch(context.Background())
	if want := "cannot read the saved page: no such file or directory"; err == nil || err.Error() != want {
		t.Errorf("missing page in the working directory: %v, want %q", err, want)
	}
	before := filepath.Join(dir, "before.prom")
	if err := os.WriteFile(before, []byte(page), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "nope.prom")
	_, err = (&FileSource{Paths: []string{missing}}).Fetch(context.Background())
	if want := "cannot read the saved page " + missing + ": no such file or directory"; err == nil || err.Error() != want {
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
