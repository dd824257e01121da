// This file is how commands write on stderr what they say besides their output:
// warnings, notices, the targets that could not be read, the final error. Much of it quotes
// servers and label values, so credentials are masked (redact) and control characters escaped
// (printable): nothing written there can retitle or clear a terminal, or start a line that a
// CI runner takes for a command (GitHub Actions' "::error").

package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
)

// Say writes "kind: text" as one line on w: text masked, and escaped whole, line breaks
// included.
func Say(w io.Writer, kind, text string) {
	fmt.Fprintf(w, "%s: %s\n", kind, StderrLine(text))
}

// StderrLine is text as one line for stderr: masked, and escaped whole.
func StderrLine(text string) string { return printable.String(redact.String(text)) }

// StderrLines is a message the plugin itself broke into lines (an error listing the targets that
// failed, each on its own line) as it may be written: masked, each line escaped, the line
// breaks kept.
func StderrLines(text string) string {
	lines := strings.Split(redact.String(text), "\n")
	for i, l := range lines {
		lines[i] = printable.String(l)
		// The plugin's own lines never start with "::"; one that does came from outside (a
		// server's message over several lines) and would be a CI runner's command.
		if rest := strings.TrimLeft(lines[i], " \t"); strings.HasPrefix(rest, "::") {
			lines[i] = lines[i][:len(lines[i])-len(rest)] + `\x3a` + rest[1:]
		}
	}
	return strings.Join(lines, "\n")
}
