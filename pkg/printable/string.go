package printable

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// String returns s with every character that a terminal or a log would act on escaped:
// C0 controls (tab, newline and carriage return included) as \t, \n, \r or \xNN, DEL as
// \x7f, C1 controls as \u0080 to \u009f, bidi embeddings, overrides and isolates (U+202A to
// U+202E, U+2066 to U+2069) as \u202e and the like, and each byte of invalid UTF-8 as \xNN.
// A leading "::" (after spaces) has its first colon escaped as \x3a: printed at the start of
// a line (a table's first column, a note), it would be read by a CI runner as a workflow
// command. Anything else, backslashes included, is left as it is; s is returned unchanged
// (and unallocated) when there is nothing to escape.
func String(s string) string {
	i := firstUnsafe(s)
	if i < 0 {
		return s
	}
	lead := commandLead(s)
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case i == lead:
			b.WriteString(`\x3a`)
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// commandLead is the index of the first colon of s's leading "::" (after spaces), where a CI
// runner reads a workflow command; -1 when s does not start so.
func commandLead(s string) int {
	i := 0
	for i < len(s) && s[i] == ' ' {
		i++
	}
	if strings.HasPrefix(s[i:], "::") {
		return i
	}
	return -1
}

// firstUnsafe is the index of the first byte of s that String escapes, -1 when none.
func firstUnsafe(s string) int {
	if i := commandLead(s); i >= 0 {
		return i
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || unsafeRune(r) {
			return i
		}
		i += size
	}
	return -1
}

// unsafeRune reports the non-ASCII runes String escapes: C1 controls and bidi controls.
func unsafeRune(r rune) bool {
	return (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}
