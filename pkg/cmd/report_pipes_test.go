//go:build unix

package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
)

// runIn is runReport with stdin.
func runIn(t *testing.T, in *os.File, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	return execute(t, NewReportCmd(testGlobals(), genericiooptions.IOStreams{In: in, Out: &out, ErrOut: &errOut}), &out, &errOut, args...)
}

// bounded runs the command and fails the test if it is still reading long after its limits.
func bounded(t *testing.T, in *os.File, args ...string) (string, string, int) {
	t.Helper()
	type result struct {
		out, errOut string
		code        int
	}
	done := make(chan result, 1)
	go func() {
		o, e, c := runIn(t, in, args...)
		done <- result{o, e, c}
	}()
	select {
	case r := <-done:
		return r.out, r.errOut, r.code
	case <-time.After(30 * time.Second):
		t.Fatalf("report %s still blocked long after --timeout and --deadline", strings.Join(args, " "))
	}
	return "", "", 0
}

func fifo(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "page.fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	return p
}

// A FIFO nobody writes to, and standard input that stays open without data, fail the target
// within --timeout, saying what was waited for and what bounds the wait.
func TestFromFileOnSilentPipes(t *testing.T) {
	out, errOut, code := bounded(t, nil, "--from-file", fifo(t), "--interval", "0", "--timeout", "300ms", "-o", "json")
	if code != cli.ExitError || !strings.Contains(out+errOut, "no process opened this FIFO") || !strings.Contains(out+errOut, "--timeout") {
		t.Errorf("--from-file FIFO: exit %d\n%s\n%s", code, errOut, out)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	out, errOut, code = bounded(t, r, "--from-file", "-", "--interval", "0", "--timeout", "300ms", "-o", "json")
	if code != cli.ExitError || !strings.Contains(out+errOut, "standard input: the pipe gave no more data") {
		t.Errorf("--from-file - on a silent pipe: exit %d\n%s\n%s", code, errOut, out)
	}
}

// A page that comes through standard input is read as before.
func TestFromFileStdinPipe(t *testing.T) {
	page, err := os.ReadFile("../../testdata/pages/controller-runtime-1.prom")
	if err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() { w.Write(page); w.Close() }()
	out, errOut, code := bounded(t, r, "--from-file", "-", "--interval", "0", "-o", "json")
	if code != cli.ExitOK || !strings.Contains(out, `"kind": "Report"`) {
		t.Errorf("--from-file - : exit %d\n%s", code, errOut)
	}
}

// A FIFO given as the snapshot, with no writer, fails within --deadline.
func TestFromSnapshotOnASilentFIFO(t *testing.T) {
	_, errOut, code := bounded(t, nil, "--from-snapshot", fifo(t), "--deadline", "300ms")
	if code != cli.ExitError || !strings.Contains(errOut, "no process opened this FIFO") || !strings.Contains(errOut, "--deadline") {
		t.Errorf("--from-snapshot FIFO: exit %d\n%s", code, errOut)
	}
}
