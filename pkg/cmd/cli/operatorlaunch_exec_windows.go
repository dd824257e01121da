//go:build windows

package cli

import (
	"errors"
	"fmt"
	"os/exec"

	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// execBinary runs the operator binary as a child with this process's streams (Windows has no
// exec) and ends with its exit code.
func execBinary(path string, args []string, streams genericiooptions.IOStreams) error {
	c := exec.Command(path, args...)
	c.Stdin, c.Stdout, c.Stderr = streams.In, streams.Out, streams.ErrOut
	err := c.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return &ExitCodeError{Code: ee.ExitCode()}
	}
	if err != nil {
		return fmt.Errorf("run %s: %w", path, err)
	}
	return nil
}
