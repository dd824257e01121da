// Package hostiletext gives tests text from outside that attacks terminals and CI logs, and
// the check that what the plugin wrote shows such text inert.
package hostiletext

import (
	"fmt"
	"strings"
)

// Name is a label value that would retitle the terminal (OSC 0 ... BEL), clear it (CSI 2 J),
// reorder what follows (U+202E) and, after its newline, start a GitHub Actions workflow
// command.
const Name = "q\x1b]0;pwned\x07\n::error file=x::pwned\x1b[2J\u202e"

// Shown is Name as the plugin prints it: every such character escaped.
const Shown = `q\x1b]0;pwned\x07\n::error file=x::pwned\x1b[2J\u202e`

// Problem says what in out a terminal or a CI runner would act on, "" when nothing: a raw
// control character other than newline and tab (C0, DEL, C1), a bidi override or isolate, or
// a line that starts a workflow command (the runner trims leading blanks).
func Problem(out string) string {
	for i, r := range out {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r < 0xa0) ||
			(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			return fmt.Sprintf("the raw character %U at byte %d", r, i)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "::") {
			return fmt.Sprintf("a line that starts a workflow command: %q", l)
		}
	}
	return ""
}
