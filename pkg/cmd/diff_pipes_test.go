//go:build unix

package cmd

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
)

// A FIFO nobody writes to, given as either file, fails within --deadline, saying so.
func TestDiffOnASilentFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "before.fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	type result struct {
		errOut string
		code   int
	}
	done := make(chan result, 1)
	go func() {
		_, errOut, code := runDiff(t, p, p, "--deadline", "300ms")
		done <- result{errOut, code}
	}()
	select {
	case r := <-done:
		if r.code != cli.ExitError || !strings.Contains(r.errOut, "no process opened this FIFO") || !strings.Contains(r.errOut, "--deadline 300ms") {
			t.Errorf("diff FIFO: exit %d\n%s", r.code, r.errOut)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("diff still blocked on the FIFO long after --deadline")
	}
}
