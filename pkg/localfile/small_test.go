package localfile

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A small file is read whole from a regular file or a pipe; a device without end is refused
// at the limit, and a FIFO without a writer fails in time.
func TestReadSmall(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "token")
	os.WriteFile(regular, []byte("abc\n"), 0o600)
	if b, err := ReadSmall(regular); err != nil || string(b) != "abc\n" {
		t.Errorf("regular file: %q, %v", b, err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() { w.Write([]byte("piped")); w.Close() }()
	if b, err := ReadSmall("/dev/fd/" + strconv.Itoa(int(r.Fd()))); err != nil || string(b) != "piped" {
		t.Errorf("pipe: %q, %v", b, err)
	}
	r.Close()
	if _, err := ReadSmall("/dev/zero"); err == nil || !strings.Contains(err.Error(), "/dev/zero is larger than") {
		t.Errorf("/dev/zero: %v", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := ReadSmall(fifo); err == nil || !strings.Contains(err.Error(), "no process opened this FIFO") {
		t.Errorf("FIFO without a writer: %v", err)
	}
	if took := time.Since(start); took > SmallWait+20*time.Second {
		t.Errorf("FIFO without a writer held the read %s", took)
	}
}
