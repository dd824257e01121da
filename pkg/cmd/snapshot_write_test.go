package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/sources/snapshot"
)

// -f never replaces what is not a regular file: a symbolic link stays a link and its target
// is untouched; a directory is refused too. Each error names the path, what it is, and what
// to do instead.
func TestSnapshotRefusesToReplaceALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "precious")
	os.WriteFile(target, []byte("keep"), 0o600)
	link := filepath.Join(dir, "s.tar.gz")
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	url := serve(t)
	for path, what := range map[string]string{link: "is a symbolic link (to " + target + ")", dir: "is a directory"} {
		_, errOut, code := runVerb(t, NewSnapshotCmd, "--url", url, "--token", token, "--interval", "0", "-f", path)
		if code != cli.ExitError || !strings.Contains(errOut, path+" "+what) || !strings.Contains(errOut, "-f - for standard output") {
			t.Errorf("-f %s: exit %d\n%s", path, code, errOut)
		}
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced")
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Errorf("the link's target holds %q", b)
	}
}

// -f - writes the archive to standard output and nothing to disk; with -o it is a usage error.
func TestSnapshotToStandardOutput(t *testing.T) {
	dir := t.TempDir()
	wd, _ := os.Getwd()
	url := serve(t)
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	out, errOut, code := runVerb(t, NewSnapshotCmd, "--url", url, "--token", token, "--interval", "0", "-f", "-")
	if code != cli.ExitOK || !strings.Contains(errOut, "written to standard output") {
		t.Fatalf("-f -: exit %d\n%s", code, errOut)
	}
	if _, err := snapshot.Read(bytes.NewReader([]byte(out)), snapshot.DefaultLimits()); err != nil {
		t.Errorf("standard output is no snapshot: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("-f - wrote %d files", len(entries))
	}
	if _, errOut, code := runVerb(t, NewSnapshotCmd, "--url", url, "--interval", "0", "-f", "-", "-o", "json"); code != cli.ExitUsage || !strings.Contains(errOut, "-o cannot print the report there too") {
		t.Errorf("-f - -o json: exit %d\n%s", code, errOut)
	}
}
