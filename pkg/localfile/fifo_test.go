//go:build unix

package localfile

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// mkfifo makes a FIFO in a temporary directory.
func mkfifo(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	return p
}

// within fails the test if f does not return in a long while: without the bound it never would.
func within(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("still blocked long after the context ended")
	}
}

func shortCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	t.Cleanup(cancel)
	return ctx
}

// A FIFO no process opens for writing fails when the context ends, saying so.
func TestOpenFIFOWithoutWriter(t *testing.T) {
	p := mkfifo(t)
	within(t, func() {
		_, err := Open(shortCtx(t), p)
		var we *WaitError
		if !errors.As(err, &we) || we.Opened || !strings.Contains(err.Error(), "no process opened this FIFO") {
			t.Errorf("error %v, want a WaitError for the open", err)
		}
	})
}

// A FIFO whose writer sends nothing, and a pipe that stays open, fail in the read.
func TestReadSilentFIFOAndPipe(t *testing.T) {
	p := mkfifo(t)
	writer := make(chan *os.File, 1)
	go func() {
		w, _ := os.OpenFile(p, os.O_WRONLY, 0)
		writer <- w // kept open, silent, until the read gave up
	}()
	defer func() {
		if w := <-writer; w != nil {
			w.Close()
		}
	}()
	within(t, func() {
		f, err := Open(shortCtx(t), p)
		if err != nil {
			t.Fatalf("open: %v", err)
		}
		defer f.Close()
		_, err = io.ReadAll(f)
		var we *WaitError
		if !errors.As(err, &we) || !we.Opened {
			t.Errorf("error %v, want a WaitError for the read", err)
		}
	})
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	within(t, func() {
		_, err := io.ReadAll(Bound(shortCtx(t), r, "standard input"))
		if err == nil || !strings.Contains(err.Error(), "standard input: the pipe gave no more data") {
			t.Errorf("error %v, want a WaitError naming standard input", err)
		}
	})
}

// A FIFO with a writer reads whole, however the writes are cut.
func TestReadFIFOWithWriter(t *testing.T) {
	p := mkfifo(t)
	want := strings.Repeat("workqueue_depth{name=\"x\"} 1\n", 10000)
	go func() {
		w, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer w.Close()
		io.WriteString(w, want)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	f, err := Open(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := io.ReadAll(f)
	if err != nil || string(got) != want {
		t.Errorf("read %d bytes, %v; want %d", len(got), err, len(want))
	}
}

// A FIFO and a device are refused as write targets and stay what they are.
func TestWriteRefusesFIFOsAndDevices(t *testing.T) {
	p := mkfifo(t)
	dev := filepath.Join(t.TempDir(), "null")
	// The same device as /dev/null (1, 3); making one needs root.
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o600, 1<<8|3); err != nil {
		dev = ""
	}
	for path, want := range map[string]string{p: "is a FIFO (named pipe)", dev: "is a character device"} {
		if path == "" {
			continue
		}
		err := Write(path, 0o600, writeString("replaced"))
		if err == nil || !strings.Contains(err.Error(), path+" "+want) {
			t.Errorf("Write(%s): %v, want %q", path, err, want)
		}
		if st, err := os.Lstat(path); err != nil || st.Mode().IsRegular() {
			t.Errorf("%s was replaced by a regular file", path)
		}
	}
}
