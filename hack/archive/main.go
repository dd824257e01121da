// Command archive writes a reproducible .tar.gz release archive: entries sorted by name,
// one fixed modification time, uid/gid 0 with no user or group names, plain ustar headers
// (no PAX or GNU extensions) and a gzip header without name or time. The same inputs always
// give the same bytes, whatever the machine, umask or file times.
//
// Usage:
//
//	go run ./hack/archive -o dist/x.tar.gz -mtime 1700000000 NAME=PATH [NAME=PATH ...]
//
// NAME is the path inside the archive, PATH the file on disk. A file that is executable on
// disk is stored with mode 0755, any other with 0644.
package main

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

type entry struct {
	name string // inside the archive, slash-separated
	src  string // on disk
}

func main() {
	out := flag.String("o", "", "archive to write (.tar.gz)")
	mtime := flag.Int64("mtime", -1, "modification time of every entry, in seconds since the Unix epoch (e.g. SOURCE_DATE_EPOCH)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: archive -o OUT.tar.gz -mtime UNIX NAME=PATH...\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if err := run(*out, *mtime, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "archive: "+err.Error())
		os.Exit(1)
	}
}

func run(out string, mtime int64, args []string) error {
	if out == "" || !strings.HasSuffix(out, ".tar.gz") {
		return fmt.Errorf("-o must name a .tar.gz file, got %q", out)
	}
	if mtime < 0 {
		return errors.New("-mtime must be set to a non-negative Unix time")
	}
	entries, err := parseEntries(args)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(out), ".archive-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	if err := write(tmp, entries, time.Unix(mtime, 0).UTC()); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", out, err)
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), out)
}

func parseEntries(args []string) ([]entry, error) {
	if len(args) == 0 {
		return nil, errors.New("nothing to archive: give NAME=PATH arguments")
	}
	seen := map[string]bool{}
	entries := make([]entry, 0, len(args))
	for _, a := range args {
		name, src, ok := strings.Cut(a, "=")
		if !ok || name == "" || src == "" {
			return nil, fmt.Errorf("argument %q is not NAME=PATH", a)
		}
		if name != path.Clean(name) || path.IsAbs(name) || strings.HasPrefix(name, "../") || name == ".." {
			return nil, fmt.Errorf("archive name %q must be a clean relative path", name)
		}
		if len(name) > 100 {
			return nil, fmt.Errorf("archive name %q is longer than 100 bytes, which plain ustar cannot hold", name)
		}
		if seen[name] {
			return nil, fmt.Errorf("archive name %q given twice", name)
		}
		seen[name] = true
		entries = append(entries, entry{name: name, src: src})
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].name < entries[j].name })
	return entries, nil
}

func write(w io.Writer, entries []entry, mtime time.Time) error {
	gz, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	// The zero gzip.Header has no name, no comment and a zero time: nothing varies.
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		if err := addFile(tw, e, mtime); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

func addFile(tw *tar.Writer, e entry, mtime time.Time) error {
	f, err := os.Open(e.src)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", e.src)
	}
	mode := int64(0o644)
	if fi.Mode().Perm()&0o111 != 0 {
		mode = 0o755
	}
	hdr := &tar.Header{
		Typeflag: tar.TypeReg,
		Name:     e.name,
		Size:     fi.Size(),
		Mode:     mode,
		ModTime:  mtime,
		Format:   tar.FormatUSTAR,
	}
	if err := tw.WriteHeader(hdr); err != nil {
		return fmt.Errorf("header for %s: %w", e.name, err)
	}
	if n, err := io.Copy(tw, f); err != nil {
		return fmt.Errorf("copying %s: %w", e.src, err)
	} else if n != fi.Size() {
		return fmt.Errorf("%s changed size while being archived", e.src)
	}
	return nil
}
