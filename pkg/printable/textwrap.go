// This file breaks running text into lines of a width, for the help, the explanations
// and the text report: one rule for where a line breaks, whoever prints it.

package printable

import "strings"

// WrapLines breaks text at its blanks into lines of at most width bytes, the first starting with
// first and the others with rest, each ending in a newline; "" for text without words. A word
// longer than a line has one of its own.
func WrapLines(text, first, rest string, width int) string {
	var b strings.Builder
	prefix := first
	line := prefix
	for _, word := range strings.Fields(text) {
		if len(line) > len(prefix) && len(line)+1+len(word) > width {
			b.WriteString(line + "\n")
			prefix = rest
			line = prefix
		}
		if len(line) > len(prefix) {
			line += " "
		}
		line += word
	}
	if len(line) > len(prefix) {
		b.WriteString(line + "\n")
	}
	return b.String()
}

// WrapHanging is text after prefix, wrapped within width, its further lines indented under the
// text's first word: an item of a list, a column of two.
func WrapHanging(prefix, text string, width int) string {
	indent := strings.Repeat(" ", len(prefix))
	return prefix + strings.TrimPrefix(WrapLines(text, indent, indent, width), indent)
}
