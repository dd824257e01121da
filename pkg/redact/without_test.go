package redact

import (
	"strings"
	"testing"
)

// A refusal's message that quotes the token sent keeps its words, never the token, and its
// control characters are escaped.
func TestExcerptWithoutTakesTheTokenOut(t *testing.T) {
	const token = "eyJhbGciOiJSUzI1NiJ9.secret-part"
	got := ExcerptWithout("401: token "+token+" rejected\x1b[31m", token)
	if strings.Contains(got, "secret-part") || !strings.Contains(got, "token xxxxx rejected") || strings.Contains(got, "\x1b") {
		t.Errorf("got %q", got)
	}
	if got := ExcerptWithout("no token here", ""); got != "no token here" {
		t.Errorf("an empty secret changed the text: %q", got)
	}
}
