package printable

import (
	"strings"
	"testing"
)

func TestStringEscapesWhatATerminalWouldActOn(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain queue-name/ü 日本", "plain queue-name/ü 日本"},
		{"q\x1b]0;pwned\x07", `q\x1b]0;pwned\x07`},
		{"a\x1b[2Jb", `a\x1b[2Jb`},
		{"line\n::error file=x::pwned", `line\n::error file=x::pwned`},
		{"tab\there\r", `tab\there\r`},
		{"nul\x00del\x7f", `nul\x00del\x7f`},
		{"c1 \u009b2J \u0085", `c1 \u009b2J \u0085`},
		{"bidi \u202eevil\u202c \u2066x\u2069", `bidi \u202eevil\u202c \u2066x\u2069`},
		{"bad \xff\xfe utf8 \xe2\x82", `bad \xff\xfe utf8 \xe2\x82`},
		{`back\slash \x1b kept`, `back\slash \x1b kept`},
		{"::error file=x::pwned", `\x3a:error file=x::pwned`},
		{"  ::warning::x", `  \x3a:warning::x`},
		{"a::b", "a::b"},
		{":single", ":single"},
	} {
		if got := String(tc.in); got != tc.want {
			t.Errorf("String(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if again := String(String(tc.in)); again != String(tc.in) {
			t.Errorf("String is not idempotent on %q: %q", tc.in, again)
		}
	}
}

func TestStringLeavesPlainTextUnallocated(t *testing.T) {
	s := strings.Repeat("controller-manager/reconcile ", 10)
	if n := testing.AllocsPerRun(100, func() { _ = String(s) }); n != 0 {
		t.Errorf("%v allocations for plain text", n)
	}
}
