package localfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// NotRegularError refuses to write where something other than a regular file is.
type NotRegularError struct {
	Path string
	// What the path is: "a symbolic link (to X)", "a character device", ...
	What string
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file, and writing would replace it: name a new file or an existing regular file", e.Path, e.What)
}

// Write writes what write gives to path with mode perm: to a new file, or over a regular
// file. It writes a temporary file in the same directory and renames it into place, so that
// a failed write leaves the path as it was. Anything else at path (a symbolic link, a
// device, a FIFO, a socket, a directory) is refused with a NotRegularError: the rename would
// replace it.
func Write(path string, perm fs.FileMode, write func(io.Writer) error) error {
	if err := checkWritable(path); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := fill(tmp, perm, write); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	// Once more just before the rename: the path may have changed while the file was written.
	if err := checkWritable(path); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func fill(f *os.File, perm fs.FileMode, write func(io.Writer) error) error {
	if err := f.Chmod(perm); err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := write(w); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Sync()
}

// checkWritable returns nil when path does not exist or is a regular file.
func checkWritable(path string) error {
	st, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case st.Mode().IsRegular():
		return nil
	}
	what := Describe(st.Mode())
	if st.Mode()&fs.ModeSymlink != 0 {
		if to, err := os.Readlink(path); err == nil {
			what += fmt.Sprintf(" (to %s)", to)
		}
	}
	return &NotRegularError{Path: path, What: what}
}

// Describe names the kind of file a mode is, with its article: "a directory", "a FIFO", ...
func Describe(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m.IsRegular():
		return "a regular file"
	}
	return "a special file"
}
