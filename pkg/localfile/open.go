package localfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// WaitError says that a FIFO or pipe gave nothing before the time allowed ran out.
type WaitError struct {
	// Name is the path, or "standard input".
	Name string
	// Opened is false when no process opened the FIFO for writing at all.
	Opened bool
}

func (e *WaitError) Error() string {
	if !e.Opened {
		return fmt.Sprintf("%s: no process opened this FIFO for writing in the time allowed", e.Name)
	}
	return fmt.Sprintf("%s: the pipe gave no more data in the time allowed (its writer is slow, stopped, or never closes it)", e.Name)
}

// Open opens path to read it. A regular file is opened as usual; a directory is refused.
// Anything else (a FIFO, a pipe, a terminal, a device) may block for ever, in the open until
// a process opens a FIFO for writing, in a read until data comes: it is opened and read
// within ctx, and fails with a WaitError when ctx ends first.
func Open(ctx context.Context, path string) (io.ReadCloser, error) {
	st, err := os.Stat(path)
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		pe.Op = "open" // worded as os.Open words it: the caller asked to open
		return nil, pe
	}
	if err != nil {
		return nil, err
	}
	switch {
	case st.IsDir():
		return nil, fmt.Errorf("%s is a directory, not a file", path)
	case st.Mode().IsRegular():
		return os.Open(path)
	}
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, err := os.Open(path)
		done <- opened{f, err}
	}()
	select {
	case o := <-done:
		if o.err != nil {
			return nil, o.err
		}
		return &boundedFile{Reader: Bound(ctx, o.f, path), f: o.f}, nil
	case <-ctx.Done():
		// The open goes on until a writer comes, if one ever does; the file is closed then.
		go func() {
			if o := <-done; o.f != nil {
				o.f.Close()
			}
		}()
		return nil, &WaitError{Name: path}
	}
}

// boundedFile is a file read within a context.
type boundedFile struct {
	io.Reader
	f *os.File
}

func (b *boundedFile) Close() error { return b.f.Close() }

// Bound returns a reader of r whose reads end with a WaitError once ctx ends, even while r
// blocks; name names r in the error. A regular file is returned as it is: its reads do not
// block. After the WaitError, a read of r may still be under way: r must not be read again.
func Bound(ctx context.Context, r io.Reader, name string) io.Reader {
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			return r
		}
	}
	return &boundedReader{ctx: ctx, r: r, name: name, res: make(chan readResult, 1), buf: make([]byte, 32<<10)}
}

type readResult struct {
	data []byte
	err  error
}

// boundedReader reads r in a goroutine, into its own buffer, so that a read ctx abandons
// never writes into the caller's.
type boundedReader struct {
	ctx     context.Context
	r       io.Reader
	name    string
	res     chan readResult
	buf     []byte
	pending []byte // read, not yet returned
	busy    bool   // a read is under way
	err     error  // the error after pending
}

func (b *boundedReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if len(b.pending) == 0 && b.err == nil {
		if !b.busy {
			b.busy = true
			go func() {
				n, err := b.r.Read(b.buf)
				b.res <- readResult{b.buf[:n], err}
			}()
		}
		select {
		case r := <-b.res:
			b.busy = false
			b.pending, b.err = r.data, r.err
		case <-b.ctx.Done():
			// The read stays under way, into b.buf, which is never read again.
			b.err = &WaitError{Name: b.name, Opened: true}
			return 0, b.err
		}
	}
	n := copy(p, b.pending)
	b.pending = b.pending[n:]
	if len(b.pending) == 0 && b.err != nil {
		return n, b.err
	}
	return n, nil
}
