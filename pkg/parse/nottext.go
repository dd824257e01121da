package parse

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
)

// NotTextError stops a page that is not Prometheus text exposition at all: an HTML or JSON
// answer, binary bytes, the protobuf exposition format. The filter skips the lines of the
// families nobody asked for, so without this check such a page would read as a page with no
// wanted families, and the user would look for queue names instead of the right port.
type NotTextError struct {
	// Line is the line of the page that gave it away.
	Line int
	// Start is the beginning of that line (blanks before it left out), secrets masked;
	// Truncated says there was more.
	Start     string
	Truncated bool
	// ContentType is the Content-Type of the answer, "" when unknown (a saved page).
	ContentType string
}

// startShown bounds the bytes of the offending line that an error shows.
const startShown = 40

// NewNotTextError describes a page whose line (1-based) starts with start. Registered tokens
// and bearer tokens are masked first: a hostile endpoint may echo the request's credentials.
func NewNotTextError(line int, start []byte, contentType string) *NotTextError {
	// Mask on a longer window than is shown, so that a token cut by the window is still
	// recognised whole.
	s := redact.String(string(start[:min(len(start), 4096)]))
	e := &NotTextError{Line: line, ContentType: contentType}
	if len(s) > startShown {
		// Not inside a UTF-8 character; but binary may have no character start at all, and a
		// character is at most 4 bytes.
		cut := startShown
		for cut > startShown-utf8.UTFMax+1 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s, e.Truncated = s[:cut], true
	}
	e.Start = s
	return e
}

func (e *NotTextError) Error() string {
	var b strings.Builder
	b.WriteString("not Prometheus text metrics")
	if e.ContentType != "" {
		fmt.Fprintf(&b, " (Content-Type %s)", strconv.QuoteToASCII(e.ContentType))
	}
	if e.Start != "" {
		// ASCII only: the bytes may be anything, and a terminal shows this.
		fmt.Fprintf(&b, ": line %d starts %s", e.Line, strconv.QuoteToASCII(e.Start))
		if e.Truncated {
			b.WriteString("...")
		}
	}
	if strings.Contains(e.ContentType, "protobuf") {
		// The right endpoint, answering in the format that was not asked for.
		b.WriteString("; the endpoint sent the protobuf exposition format although the text format was asked for " +
			"(Accept: text/plain); ctrldiag reads only the text format")
		return b.String()
	}
	b.WriteString("; is this the metrics port? is the path /metrics?")
	return b.String()
}

// ContentTyper is a page reader that knows the media type of what it carries (scrape's HTTP
// bodies); Parse names that type in a NotTextError.
type ContentTyper interface {
	ContentType() string
}

// utf8BOM is the byte order mark some editors write at the start of a saved page.
var utf8BOM = []byte("\xef\xbb\xbf")

// skippedLineOK judges a sample line the filter drops (blanks trimmed; name is its metricName):
// the first of a page in full (looksLikeSample), the others by their start. For those, the
// usual line, a plain name and then a blank or labels, costs two byte tests, not a scan of the
// name (a scan on every change of name cost 15% on kube-apiserver pages).
// It is looser (odd bytes inside the name pass), which is enough: the first line is what tells
// a page of something else, and later garbage rarely starts that way line after line.
// Anything else gets looksLikeSample's exact answer.
func skippedLineOK(line, name []byte, first bool) bool {
	if n := len(name); !first && n > 0 && n < len(line) && nameLen(line[:1], true) == 1 &&
		(line[n] == ' ' || line[n] == '{' || line[n] == '\t') {
		return true
	}
	return looksLikeSample(line, first, false)
}

// startsLikeText reports whether the first chunk of a line too long for the read buffer may
// start a line of text exposition: the rest of a binary page is then never read.
func startsLikeText(chunk []byte) bool {
	s := trimBlanks(chunk)
	return len(s) == 0 || s[0] == '#' || looksLikeSample(s, false, true)
}

// looksLikeSample reports whether line (leading blanks trimmed, comments excluded) may be a
// sample line of the text format. It accepts every line expfmt's parser accepts, and more
// (it does not check label names, escapes or the timestamp): a line it rejects is never valid
// exposition, so a valid page is never taken for something else. The check is of the start of
// the line: a metric name, plain or quoted, inside braces or not, followed by what may follow
// one (blanks, labels, or the value itself, as expfmt reads "a-1"). With full, the labels
// must close and the value must be a number, which tells "Welcome to nginx!" from a sample.
// With partial, line may be cut (the head of a long line): running out is no reason to reject.
func looksLikeSample(line []byte, full, partial bool) bool {
	s := line
	if len(bytes.Trim(s, " \t\r\n")) == 0 {
		return true // a blank line, CR and all: nothing to tell
	}
	if s[0] == '{' {
		// {name,label="v"} 1 or {"utf8.name"} 1: a name, then '=' (a label first), ',' or '}'.
		rest := trimBlanks(s[1:])
		n, ok := nameEnd(rest)
		if !ok {
			return partial && n == len(rest)
		}
		rest = trimBlanks(rest[n:])
		if len(rest) == 0 {
			return partial
		}
		if rest[0] != '=' && rest[0] != ',' && rest[0] != '}' {
			return false
		}
		if !full {
			return true
		}
		after, ok := skipLabels(s[1:])
		return ok && validValue(trimBlanks(after))
	}
	n, ok := nameEnd(s)
	if !ok {
		return partial && n == len(s)
	}
	rest := s[n:]
	if len(rest) == 0 {
		return partial
	}
	if !strings.ContainsRune(" \t{+-.0123456789iInN", rune(rest[0])) {
		return false
	}
	if !full {
		return true
	}
	rest = trimBlanks(rest)
	if len(rest) > 0 && rest[0] == '{' {
		if rest, ok = skipLabels(rest[1:]); !ok {
			return false
		}
		rest = trimBlanks(rest)
	}
	return validValue(rest)
}

// nameEnd returns the length of the metric or label name at the start of s as expfmt reads
// it: legacy characters, with quoted parts (escapes allowed) that end the name at their
// closing quote. ok is false when s does not start with a name or a quote is not closed on
// the line; n is then len(s) when s ended inside the name.
func nameEnd(s []byte) (n int, ok bool) {
	if len(s) == 0 || !(s[0] == '"' || nameLen(s[:1], true) == 1) {
		return 0, false
	}
	quoted := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\n':
			return i, false
		case quoted && c == '\\':
			i++
		case c == '"':
			if quoted {
				return i + 1, true
			}
			quoted = true
		case quoted:
		case c != '_' && c != ':' && !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'):
			return i, true
		}
	}
	return len(s), !quoted
}

// skipLabels returns what follows the closing brace of a label set, s starting after its
// opening brace; quoted text (with escapes) may hold braces. ok is false when the set does not
// close on the line.
func skipLabels(s []byte) (rest []byte, ok bool) {
	quoted := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\n':
			return nil, false
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case c == '}' && !quoted:
			return s[i+1:], true
		}
	}
	return nil, false
}

// validValue reports whether s starts with a sample value: a number as expfmt reads it, up to
// a blank or the end of the line (a CR ends it too, to be lenient).
func validValue(s []byte) bool {
	end := bytes.IndexAny(s, " \t\r\n")
	if end < 0 {
		end = len(s)
	}
	if end == 0 {
		return false
	}
	_, err := parseFloat(s[:end])
	return err == nil
}
