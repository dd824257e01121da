package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func writeInputs(t *testing.T, dir string, mtime time.Time) (bin, license string) {
	t.Helper()
	bin, license = filepath.Join(dir, "bin"), filepath.Join(dir, "LICENSE")
	if err := os.WriteFile(bin, []byte("binary"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(license, []byte("license"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{bin, license} {
		if err := os.Chtimes(f, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	return bin, license
}

// Two archives of the same content, from files with other times, modes and argument order,
// are byte-identical, and their headers carry nothing of the machine.
func TestArchiveIsReproducible(t *testing.T) {
	d1, d2 := t.TempDir(), t.TempDir()
	bin1, lic1 := writeInputs(t, d1, time.Unix(1, 0))
	bin2, lic2 := writeInputs(t, d2, time.Now())
	if err := os.Chmod(bin2, 0o755); err != nil {
		t.Fatal(err)
	}
	out1, out2 := filepath.Join(d1, "a.tar.gz"), filepath.Join(d2, "a.tar.gz")
	if err := run(out1, 1700000000, []string{"kubectl-x=" + bin1, "LICENSE=" + lic1}); err != nil {
		t.Fatal(err)
	}
	if err := run(out2, 1700000000, []string{"LICENSE=" + lic2, "kubectl-x=" + bin2}); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(out1)
	b, _ := os.ReadFile(out2)
	if !bytes.Equal(a, b) {
		t.Fatal("the two archives differ")
	}

	gz, err := gzip.NewReader(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	if gz.Name != "" || !gz.ModTime.IsZero() || gz.Comment != "" {
		t.Errorf("gzip header has name %q, time %v, comment %q", gz.Name, gz.ModTime, gz.Comment)
	}
	tr := tar.NewReader(gz)
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
		if h.Uid != 0 || h.Gid != 0 || h.Uname != "" || h.Gname != "" || h.ModTime.Unix() != 1700000000 ||
			h.Format != tar.FormatUSTAR || len(h.PAXRecords) != 0 || h.Typeflag != tar.TypeReg {
			t.Errorf("%s: header %+v", h.Name, h)
		}
		wantMode := int64(0o644)
		if h.Name == "kubectl-x" {
			wantMode = 0o755
		}
		if h.Mode != wantMode {
			t.Errorf("%s: mode %o, want %o", h.Name, h.Mode, wantMode)
		}
	}
	if strings.Join(names, ",") != "LICENSE,kubectl-x" {
		t.Errorf("entries %v, want sorted LICENSE,kubectl-x", names)
	}
}

func TestArchiveErrors(t *testing.T) {
	dir := t.TempDir()
	bin, _ := writeInputs(t, dir, time.Unix(1, 0))
	out := filepath.Join(dir, "x.tar.gz")
	for name, tc := range map[string]struct {
		out   string
		mtime int64
		args  []string
		want  string
	}{
		"no mtime":       {out, -1, []string{"a=" + bin}, "-mtime"},
		"not tar.gz":     {filepath.Join(dir, "x.zip"), 0, []string{"a=" + bin}, ".tar.gz"},
		"no entries":     {out, 0, nil, "nothing to archive"},
		"not NAME=PATH":  {out, 0, []string{bin}, "is not NAME=PATH"},
		"escaping name":  {out, 0, []string{"../a=" + bin}, "clean relative path"},
		"duplicate name": {out, 0, []string{"a=" + bin, "a=" + bin}, "given twice"},
		"missing file":   {out, 0, []string{"a=" + filepath.Join(dir, "nope")}, "no such file"},
		"directory":      {out, 0, []string{"a=" + dir}, "not a regular file"},
	} {
		t.Run(name, func(t *testing.T) {
			err := run(tc.out, tc.mtime, tc.args)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed run left %s behind", out)
	}
}
