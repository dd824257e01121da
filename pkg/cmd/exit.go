package cmd

import (
	"errors"
	"fmt"
)

// Exit codes of kubectl-ctrldiag, documented in README and in `--help` of each command.
const (
	ExitOK       = 0 // success: the result was printed
	ExitError    = 1 // the command could not do its job (bad kubeconfig, API server unreachable, ...)
	ExitUsage    = 2 // unknown command or flag, invalid flag value
	ExitFindings = 3 // --fail-on matched: findings at or above the chosen severity
)

// ExitError carries a non-default exit code. A nil Err means the result was already printed
// and only the exit code remains to be set (e.g. --fail-on).
type ExitCodeError struct {
	Code int
	Err  error
}

func (e *ExitCodeError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit code %d", e.Code)
	}
	return e.Err.Error()
}

func (e *ExitCodeError) Unwrap() error { return e.Err }

// UsageError marks an error in the command line (flag values, arguments).
func UsageError(format string, args ...any) error {
	return &ExitCodeError{Code: ExitUsage, Err: fmt.Errorf(format, args...)}
}

// CodeFor maps an error returned by a command to the process exit code and the message to
// print (empty when there is nothing to say).
func CodeFor(err error) (int, string) {
	if err == nil {
		return ExitOK, ""
	}
	var ec *ExitCodeError
	if errors.As(err, &ec) {
		if ec.Err == nil {
			return ec.Code, ""
		}
		return ec.Code, ec.Err.Error()
	}
	return ExitError, err.Error()
}
