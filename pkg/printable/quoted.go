package printable

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// Quoted escapes, in a JSON document or a YAML document whose strings holding such runes are
// double-quoted, DEL and the non-ASCII runes String escapes (C1 controls, bidi embeddings,
// overrides and isolates) as \uXXXX, which both formats read back as the same rune: the data
// stays exact and nothing reaches the terminal raw. The encoders escape the C0 controls
// themselves (and Go's JSON encoder leaves DEL raw, which a YAML parser refuses).
// doc is returned unchanged (and unallocated) when there is nothing to escape.
func Quoted(doc []byte) []byte {
	i := firstWide(doc)
	if i < 0 {
		return doc
	}
	var b bytes.Buffer
	b.Grow(len(doc) + 16)
	b.Write(doc[:i])
	for i < len(doc) {
		r, size := utf8.DecodeRune(doc[i:])
		if r == 0x7f || size > 1 && unsafeRune(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
		} else {
			b.Write(doc[i : i+size])
		}
		i += size
	}
	return b.Bytes()
}

// firstWide is the index of the first rune of doc that Quoted escapes, -1 when none.
func firstWide(doc []byte) int {
	for i := 0; i < len(doc); {
		if doc[i] == 0x7f {
			return i
		}
		if doc[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(doc[i:])
		if size > 1 && unsafeRune(r) {
			return i
		}
		i += size
	}
	return -1
}
