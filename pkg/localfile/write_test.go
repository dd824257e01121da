package localfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// A new file is created with the mode asked; a regular file is replaced whole; nothing else is
// left in the directory.
func TestWriteNewAndRegular(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.tar.gz")
	if err := Write(p, 0o600, writeString("first, and longer")); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, 0o600, writeString("second")); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	st, _ := os.Stat(p)
	if string(b) != "second" || st.Mode().Perm() != 0o600 {
		t.Errorf("the file holds %q, mode %v; want %q, 0600", b, st.Mode().Perm(), "second")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the directory holds %d entries, want the file only", len(entries))
	}
	// A failed write leaves the file as it was.
	if err := Write(p, 0o600, func(io.Writer) error { return errors.New("boom") }); err == nil {
		t.Error("the failed write returned no error")
	}
	if b, _ := os.ReadFile(p); string(b) != "second" {
		t.Errorf("a failed write changed the file to %q", b)
	}
}

// A symbolic link and a directory are refused by name and kind; the link still points where it
// did and its target is unchanged.
func TestWriteRefusesLinksAndDirectories(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("keep"), 0o600)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	for p, want := range map[string]string{link: "is a symbolic link (to " + target + ")", dir: "is a directory"} {
		err := Write(p, 0o600, writeString("replaced"))
		var nr *NotRegularError
		if !errors.As(err, &nr) || !strings.Contains(err.Error(), p+" "+want) || !strings.Contains(err.Error(), "name a new file") {
			t.Errorf("Write(%s): %v, want a NotRegularError saying %q", p, err, want)
		}
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", st.Mode(), err)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Errorf("the link's target holds %q", b)
	}
}
