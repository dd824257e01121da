//go:build e2e

package e2e

import (
	"os"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/crilog"
)

// criFile is a process's output in the CRI log format, in the file a kwok Logs object names:
// what `kubectl logs` shows of the pod the process stands behind.
type criFile struct {
	file           *os.File
	stdout, stderr *crilog.Stream
}

// createCRI creates (or empties) path for a process's output.
func createCRI(t *testing.T, path string) *criFile {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := crilog.New(f)
	return &criFile{file: f, stdout: w.Stream("stdout"), stderr: w.Stream("stderr")}
}

// close writes a last line without its newline and closes the file; nil is a no-op.
func (c *criFile) close() {
	if c == nil {
		return
	}
	c.stdout.Flush()
	c.stderr.Flush()
	c.file.Close()
}
