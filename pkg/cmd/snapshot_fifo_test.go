//go:build unix

package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
)

// -f on a FIFO (or, as root, a device) is refused, and it stays what it was.
func TestSnapshotRefusesToReplaceAFIFOOrDevice(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	paths := map[string]string{fifo: "is a FIFO (named pipe)"}
	// A device like /dev/null (1, 3): what `snapshot -f /dev/null` replaced, run as root.
	if dev := filepath.Join(dir, "null"); syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3) == nil {
		paths[dev] = "is a character device"
	}
	url := serve(t)
	for path, what := range paths {
		_, errOut, code := runVerb(t, NewSnapshotCmd, "--url", url, "--token", token, "--interval", "0", "-f", path)
		if code != cli.ExitError || !strings.Contains(errOut, path+" "+what) {
			t.Errorf("-f %s: exit %d\n%s", path, code, errOut)
		}
		if st, err := os.Lstat(path); err != nil || st.Mode().IsRegular() {
			t.Errorf("%s was replaced by a regular file", path)
		}
	}
}
