package krewmanifest

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// licenseNames are the file names krew-index's validator accepts as a license.
var licenseNames = map[string]bool{"license": true, "license.txt": true, "license.md": true,
	"licenses": true, "licenses.txt": true, "licenses.md": true, "copying": true, "copying.txt": true}

// FileSHA256 returns the lowercase hex sha256 of a file.
func FileSHA256(file string) (string, error) {
	f, err := os.Open(file)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Install does what `kubectl krew install` does with a downloaded archive: it checks the
// archive's sha256 against the platform, unpacks it into a staging directory, applies the
// platform's `files` operations into installDir, and checks that `bin` is an executable
// file inside installDir and that a license file was installed. It returns the path of bin.
func Install(archive string, pl Platform, installDir string) (string, error) {
	sum, err := FileSHA256(archive)
	if err != nil {
		return "", err
	}
	if sum != pl.Sha256 {
		return "", fmt.Errorf("sha256 of %s is %s, the manifest says %s", filepath.Base(archive), sum, pl.Sha256)
	}
	staging, err := os.MkdirTemp("", "krewmanifest-staging-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(staging)
	if err := extractTarGz(archive, staging); err != nil {
		return "", fmt.Errorf("unpacking %s: %w", filepath.Base(archive), err)
	}
	files := pl.Files
	if files == nil { // krew's default when `files` is left out
		files = []FileOperation{{From: "*", To: "."}}
	}
	if err := os.MkdirAll(installDir, 0o755); err != nil {
		return "", err
	}
	for _, op := range files {
		if err := moveFiles(staging, installDir, op); err != nil {
			return "", fmt.Errorf("files (from: %q, to: %q) on %s: %w", op.From, op.To, filepath.Base(archive), err)
		}
	}
	bin := filepath.Join(installDir, filepath.FromSlash(pl.Bin))
	if !within(installDir, bin) {
		return "", fmt.Errorf("bin %q is outside the installation directory", pl.Bin)
	}
	fi, err := os.Stat(bin)
	if err != nil {
		return "", fmt.Errorf("bin %q is not in the installation after the files operations of %s: %w", pl.Bin, filepath.Base(archive), err)
	}
	if !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return "", fmt.Errorf("bin %q is not an executable file (mode %s)", pl.Bin, fi.Mode())
	}
	if err := findLicense(installDir); err != nil {
		return "", fmt.Errorf("%s: %w", filepath.Base(archive), err)
	}
	return bin, nil
}

// moveFiles applies one file operation with krew's semantics (internal/installation/move.go):
// if From names an existing file it is moved to To (To "." keeps its name); otherwise From
// is a glob and every match is moved into the directory To. A glob matching nothing is an
// error.
func moveFiles(fromDir, toDir string, op FileOperation) error {
	if filepath.Clean(op.To) != op.To {
		return fmt.Errorf("to %q is not clean, krew wants %q", op.To, filepath.Clean(op.To))
	}
	src := filepath.Clean(filepath.Join(fromDir, filepath.FromSlash(op.From)))
	if _, err := os.Stat(src); err == nil {
		to := op.To
		if to == "." {
			to = filepath.Base(src)
		}
		dst := filepath.Join(toDir, filepath.FromSlash(to))
		return move(fromDir, toDir, src, dst)
	}
	matches, err := filepath.Glob(filepath.Join(fromDir, filepath.FromSlash(op.From)))
	if err != nil {
		return fmt.Errorf("bad glob %q: %w", op.From, err)
	}
	if len(matches) == 0 {
		return fmt.Errorf("no files in the archive matched %q", op.From)
	}
	dir := filepath.Join(toDir, filepath.FromSlash(op.To))
	for _, m := range matches {
		if err := move(fromDir, toDir, m, filepath.Join(dir, filepath.Base(m))); err != nil {
			return err
		}
	}
	return nil
}

func move(fromDir, toDir, src, dst string) error {
	if !within(fromDir, src) || !within(toDir, dst) {
		return fmt.Errorf("moving %s to %s leaves the archive or the installation directory", src, dst)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.Rename(src, dst)
}

// within reports whether p is base or below it.
func within(base, p string) bool {
	rel, err := filepath.Rel(base, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func findLicense(dir string) error {
	var names []string
	err := filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			names = append(names, d.Name())
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, n := range names {
		if licenseNames[strings.ToLower(n)] {
			return nil
		}
	}
	return fmt.Errorf("no LICENSE (or alike) file among the installed files [%s]", strings.Join(names, ", "))
}

// extractTarGz unpacks regular files and directories, refusing paths that leave dir and
// any other entry type.
func extractTarGz(archive, dir string) error {
	f, err := os.Open(archive)
	if err != nil {
		return err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(h.Name))
		if !within(dir, dst) {
			return fmt.Errorf("entry %q leaves the extraction directory", h.Name)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(dst, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, os.FileMode(h.Mode).Perm())
			if err != nil {
				return err
			}
			if _, err := io.Copy(out, tr); err != nil {
				out.Close()
				return err
			}
			if err := out.Close(); err != nil {
				return err
			}
		default:
			return fmt.Errorf("entry %q has type %q, only files and directories are expected", h.Name, h.Typeflag)
		}
	}
}
