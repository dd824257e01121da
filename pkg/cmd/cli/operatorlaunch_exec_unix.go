//go:build !windows

package cli

import (
	"fmt"
	"os"
	"syscall"

	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// execBinary replaces this process with the operator binary, so that it gets the terminal, the
// signals (SIGTERM stops it cleanly) and the exit code exactly as if it had been run directly.
func execBinary(path string, args []string, _ genericiooptions.IOStreams) error {
	argv := append([]string{path}, args...)
	if err := syscall.Exec(path, argv, os.Environ()); err != nil {
		return fmt.Errorf("run %s: %w", path, err)
	}
	return nil // not reached
}
