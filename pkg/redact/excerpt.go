package redact

import (
	"strings"
	"unicode/utf8"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/printable"
)

// ExcerptBytes bounds what Excerpt shows of a body.
const ExcerptBytes = 200

// excerptWindow is how much of a body is masked before it is cut: a secret that the cut would
// split is still recognised whole.
const excerptWindow = 4096

// Excerpt is the way to quote what a server answered (an error page, an error message) in a
// message: its start, with the registered secrets and any bearer or basic credentials
// masked, runs of blanks and line breaks made one space, control characters and invalid UTF-8
// escaped (printable.String), and at most ExcerptBytes bytes, "..." marking a cut. "" for a
// body of blanks only.
func Excerpt(body []byte) string {
	return ExcerptString(string(body[:min(len(body), excerptWindow)]))
}

// ExcerptString is Excerpt of a text.
func ExcerptString(s string) string {
	cut := len(s) > excerptWindow
	s = s[:min(len(s), excerptWindow)]
	s = strings.Join(strings.Fields(String(s)), " ")
	var b strings.Builder
	for i := 0; i < len(s); {
		_, size := utf8.DecodeRuneInString(s[i:])
		piece := printable.String(s[i : i+size])
		if b.Len()+len(piece) > ExcerptBytes {
			return b.String() + "..."
		}
		b.WriteString(piece)
		i += size
	}
	if cut {
		b.WriteString("...")
	}
	return b.String()
}

// ExcerptWithout is ExcerptString of s with secret (a token sent with the request that s
// speaks of) replaced first; "" takes nothing out.
func ExcerptWithout(s, secret string) string {
	if secret != "" {
		s = strings.ReplaceAll(s, secret, "xxxxx")
	}
	return ExcerptString(s)
}
