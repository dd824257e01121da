// This file defines the process exit codes of kubectl-ctrldiag and the error type that
// carries one from a command to main.

package cli

import (
	"errors"
	"fmt"
)

// Exit codes of kubectl-ctrldiag, documented in README ("Exit codes") and in `--help` of each command.
const (
	ExitOK       = 0 // success: the result was printed
	ExitError    = 1 // the command could not do its job (bad kubeconfig, API server unreachable, ...)
	ExitUsage    = 2 // unknown command or flag, invalid flag value
	ExitFindings = 3 // --fail-on matched: findings at or above the chosen severity
)

// Error carries a non-default exit code. A nil Err means the result was already printed
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

// Failure marks err as the command failing at its job (exit 1) even when it comes before the
// command's flags were validated, e.g. an input file named by a flag that cannot be read as
// what it should be: not a usage error.
func Failure(err error) error {
	return &ExitCodeError{Code: ExitError, Err: err}
}

// CodeFor maps an error returned by a command to the process exit code and the message to
// print (empty when there is nothing to say). An error of an engine package that has a
// Usage() bool method returning true is an error in the command line (exit 2): the engines
// know nothing of exit codes.
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
	var u interface{ Usage() bool }
	if errors.As(err, &u) && u.Usage() {
		return ExitUsage, err.Error()
	}
	return ExitError, err.Error()
}
