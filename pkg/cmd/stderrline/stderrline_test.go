package stderrline

import (
	"bytes"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
)

func TestSayWritesOneMaskedEscapedLine(t *testing.T) {
	redact.Add("stderr-secret-1")
	var b bytes.Buffer
	Say(&b, "warning", "server says stderr-secret-1 \x1b]0;pwned\x07\n::error file=x::pwned")
	if got, want := b.String(), `warning: server says [REDACTED] \x1b]0;pwned\x07\n::error file=x::pwned`+"\n"; got != want {
		t.Errorf("Say wrote %q, want %q", got, want)
	}
	if got, want := Lines("no target could be read:\n  a: \x1b[2J stderr-secret-1\r"), "no target could be read:\n  a: \\x1b[2J [REDACTED]\\r"; got != want {
		t.Errorf("Lines = %q, want %q", got, want)
	}
}
