package promsource

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// lexer reads an answer's JSON from a stream, value by value, without encoding/json's
// reflection or its token machinery: it checks the syntax as encoding/json does (RFC 8259,
// strings of any bytes but control characters, at most maxDepth levels of nesting) and hands
// out a value's bytes, which stay valid until the next read. Its buffer holds the value being
// read and what was read ahead, no more: an answer's size is bounded by its reader.
type lexer struct {
	r   io.Reader
	buf []byte
	off int // the next byte to read
	// keep, when not negative, is where the value being read began: fill keeps it.
	keep int
	err  error // the reader's, once it failed or ended
}

// maxDepth is how deeply values may nest, encoding/json's own limit.
const maxDepth = 10000

// readChunk is what the lexer asks of its reader at least, each time it needs more.
const readChunk = 32 << 10

// errEnd is the end of the answer in the middle of a value.
var errEnd = errors.New("unexpected end of JSON input")

func newLexer(r io.Reader) *lexer { return &lexer{r: r, keep: -1} }

// fill reads more of the answer, dropping what was read and is not kept; false when nothing
// more comes.
func (l *lexer) fill() bool {
	for l.err == nil {
		from := l.off
		if l.keep >= 0 {
			from = l.keep
		}
		if from > 0 {
			n := copy(l.buf, l.buf[from:])
			l.buf, l.off = l.buf[:n], l.off-from
			if l.keep >= 0 {
				l.keep = 0
			}
		}
		if cap(l.buf)-len(l.buf) < readChunk {
			grown := make([]byte, len(l.buf), 2*cap(l.buf)+readChunk)
			copy(grown, l.buf)
			l.buf = grown
		}
		n, err := l.r.Read(l.buf[len(l.buf):cap(l.buf)])
		l.buf = l.buf[:len(l.buf)+n]
		l.err = err
		if n > 0 {
			return true
		}
	}
	return false
}

// peek is the next byte after any space; ok is false at the end of the answer.
func (l *lexer) peek() (byte, bool) {
	for {
		for l.off < len(l.buf) {
			switch c := l.buf[l.off]; c {
			case ' ', '\t', '\n', '\r':
				l.off++
			default:
				return c, true
			}
		}
		if !l.fill() {
			return 0, false
		}
	}
}

// next reads the byte peek gives.
func (l *lexer) next() (byte, bool) {
	c, ok := l.peek()
	if ok {
		l.off++
	}
	return c, ok
}

// expect reads c, after any space.
func (l *lexer) expect(c byte) error {
	got, ok := l.next()
	if !ok {
		return errEnd
	}
	if got != c {
		return l.unexpected(got, fmt.Sprintf("where %q was expected", c))
	}
	return nil
}

func (l *lexer) unexpected(c byte, where string) error {
	return fmt.Errorf("invalid character %q %s", c, where)
}

// raw reads one value and returns its bytes, valid until the next read.
func (l *lexer) raw() ([]byte, error) {
	if _, ok := l.peek(); !ok {
		return nil, errEnd
	}
	l.keep = l.off
	err := l.skip(0)
	start := l.keep
	l.keep = -1
	if err != nil {
		return nil, err
	}
	return l.buf[start:l.off], nil
}

// key reads an object's key; the colon after it is read with its value (colon).
func (l *lexer) key() (string, error) {
	c, ok := l.peek()
	if !ok {
		return "", errEnd
	}
	if c != '"' {
		return "", l.unexpected(c, "where a key was expected")
	}
	b, err := l.raw()
	if err != nil {
		return "", err
	}
	var k string
	if plain := b[1 : len(b)-1]; !hasEscape(plain) {
		k = string(plain)
	} else if err := json.Unmarshal(b, &k); err != nil {
		return "", err
	}
	return k, nil
}

// colon reads the colon between an object's key and its value.
func (l *lexer) colon() error { return l.expect(':') }

// value reads an object's value, its colon first, and returns its bytes as raw does.
func (l *lexer) value() ([]byte, error) {
	if err := l.colon(); err != nil {
		return nil, err
	}
	return l.raw()
}

// valueInto reads an object's value, its colon first, into v as encoding/json would.
func (l *lexer) valueInto(v any) error {
	b, err := l.value()
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

func hasEscape(b []byte) bool {
	for _, c := range b {
		if c == '\\' {
			return true
		}
	}
	return false
}

// more reports whether a list or object goes on: false at its end (or the answer's), after
// reading the comma between its elements when it goes on and this is not its first one.
func (l *lexer) more(first bool) (bool, error) {
	c, ok := l.peek()
	if !ok || c == ']' || c == '}' {
		return false, nil
	}
	if first {
		return true, nil
	}
	if c != ',' {
		return false, l.unexpected(c, "after a list's element or an object's value")
	}
	l.off++
	return true, nil
}

// skip reads one value, checking its syntax.
func (l *lexer) skip(depth int) error {
	c, ok := l.next()
	if !ok {
		return errEnd
	}
	switch c {
	case '{', '[':
		if depth++; depth > maxDepth {
			return errors.New("exceeded max depth")
		}
		end := byte(']')
		if c == '{' {
			end = '}'
		}
		for first := true; ; first = false {
			d, ok := l.peek()
			if !ok {
				return errEnd
			}
			if d == end {
				l.off++
				return nil
			}
			if !first {
				if d != ',' {
					return l.unexpected(d, "after a list's element or an object's value")
				}
				l.off++
			}
			if end == '}' {
				if d, ok = l.peek(); !ok {
					return errEnd
				}
				if d != '"' {
					return l.unexpected(d, "where a key was expected")
				}
				if err := l.skip(depth); err != nil {
					return err
				}
				if err := l.expect(':'); err != nil {
					return err
				}
			}
			if err := l.skip(depth); err != nil {
				return err
			}
		}
	case '"':
		return l.skipString()
	case 't':
		return l.literal("rue")
	case 'f':
		return l.literal("alse")
	case 'n':
		return l.literal("ull")
	}
	if c == '-' || c >= '0' && c <= '9' {
		l.off--
		return l.skipNumber()
	}
	return l.unexpected(c, "looking for the beginning of a value")
}

// at is the byte at off, reading more when needed; ok is false at the end of the answer.
func (l *lexer) at() (byte, bool) {
	for l.off >= len(l.buf) {
		if !l.fill() {
			return 0, false
		}
	}
	return l.buf[l.off], true
}

func (l *lexer) literal(rest string) error {
	for i := range len(rest) {
		c, ok := l.at()
		if !ok {
			return errEnd
		}
		if c != rest[i] {
			return l.unexpected(c, "in a literal")
		}
		l.off++
	}
	return nil
}

// skipString reads the rest of a string, its opening quote read.
func (l *lexer) skipString() error {
	for {
		// The usual bytes, in the buffer, without a call each.
		for l.off < len(l.buf) {
			c := l.buf[l.off]
			if c == '"' || c == '\\' || c < 0x20 {
				break
			}
			l.off++
		}
		c, ok := l.at()
		if !ok {
			return errEnd
		}
		l.off++
		switch {
		case c == '"':
			return nil
		case c < 0x20:
			return l.unexpected(c, "in a string")
		case c == '\\':
			e, ok := l.at()
			if !ok {
				return errEnd
			}
			l.off++
			switch e {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				for range 4 {
					h, ok := l.at()
					if !ok {
						return errEnd
					}
					if !isHex(h) {
						return l.unexpected(h, "in a \\u escape")
					}
					l.off++
				}
			default:
				return l.unexpected(e, "in a string escape")
			}
		}
	}
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// skipNumber reads a number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (l *lexer) skipNumber() error {
	c, _ := l.at()
	if c == '-' {
		l.off++
	}
	c, ok := l.at()
	switch {
	case !ok:
		return errEnd
	case c == '0':
		l.off++
	case c >= '1' && c <= '9':
		l.digits()
	default:
		return l.unexpected(c, "in a number")
	}
	if c, ok := l.at(); ok && c == '.' {
		l.off++
		if err := l.someDigits(); err != nil {
			return err
		}
	}
	if c, ok := l.at(); ok && (c == 'e' || c == 'E') {
		l.off++
		if c, ok := l.at(); ok && (c == '+' || c == '-') {
			l.off++
		}
		return l.someDigits()
	}
	return nil
}

func (l *lexer) digits() {
	for {
		c, ok := l.at()
		if !ok || c < '0' || c > '9' {
			return
		}
		l.off++
	}
}

// someDigits reads at least one digit.
func (l *lexer) someDigits() error {
	c, ok := l.at()
	if !ok {
		return errEnd
	}
	if c < '0' || c > '9' {
		return l.unexpected(c, "in a number")
	}
	l.digits()
	return nil
}
