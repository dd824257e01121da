package cli

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
	if got, want := StderrLines("no target could be read:\n  a: \x1b[2J stderr-secret-1\r"), "no target could be read:\n  a: \\x1b[2J [REDACTED]\\r"; got != want {
		t.Errorf("Lines = %q, want %q", got, want)
	}
	if got, want := StderrLines("the server said:\n  ::error file=x::pwned\n::warning::y"), "the server said:\n  \\x3a:error file=x::pwned\n\\x3a:warning::y"; got != want {
		t.Errorf("Lines = %q, want %q: a line from outside must not start a CI command", got, want)
	}
}
