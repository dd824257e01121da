package cli

import (
	"io"
	"os"
	"strconv"

	"golang.org/x/term"
)

// Width is the width tables and reports are laid out in on w: on a terminal, $COLUMNS when
// it says one, else the terminal's own; 0 otherwise (a pipe or a file), which the printers
// read as their default of 80, so that what a script or a test reads does not depend on where
// it ran.
func Width(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return 0
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	if n, _, err := term.GetSize(int(f.Fd())); err == nil && n > 0 {
		return n
	}
	return 0
}
