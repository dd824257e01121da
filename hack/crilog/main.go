// Command crilog runs a command and writes its output, as the kubelet does for a container, in
// the CRI log format to a file (and, unchanged, to its own stdout and stderr):
//
//	crilog FILE -- COMMAND [ARGS...]
//
// hack/cluster/behind-pod.sh runs the process behind a pod through it, so that a kwok Logs
// object naming FILE serves the process's output to `kubectl logs`. SIGTERM and SIGINT are
// passed on to the command; crilog exits with its exit code.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/crilog"
)

func main() {
	if len(os.Args) < 4 || os.Args[2] != "--" {
		fmt.Fprintln(os.Stderr, "usage: crilog FILE -- COMMAND [ARGS...]")
		os.Exit(2)
	}
	os.Exit(run(os.Args[1], os.Args[3:]))
}

func run(path string, argv []string) int {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		fmt.Fprintf(os.Stderr, "crilog: %v\n", err)
		return 1
	}
	defer f.Close()
	w := crilog.New(f)
	stdout, stderr := w.Stream("stdout"), w.Stream("stderr")
	defer stdout.Flush()
	defer stderr.Flush()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin = os.Stdin
	cmd.Stdout, cmd.Stderr = io.MultiWriter(os.Stdout, stdout), io.MultiWriter(os.Stderr, stderr)
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "crilog: %v\n", err)
		return 1
	}
	go func() {
		for s := range signals {
			_ = cmd.Process.Signal(s)
		}
	}()
	err = cmd.Wait()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		return exit.ExitCode()
	}
	fmt.Fprintf(os.Stderr, "crilog: %v\n", err)
	return 1
}
