package render

import "strings"

// mdPunct are the characters that start markup in GitHub's Markdown wherever they stand: a
// backslash escape, code, emphasis, a link or an image, a tag or an autolink, a table cell's
// end, strikethrough, an entity.
const mdPunct = "\\`*_[]<|~&"

// md is text from outside as Markdown (GitHub's flavour) that renders as it reads, in a line
// or a table cell: each character in mdPunct is backslash-escaped, a newline is a space, a
// leading # (a heading) is escaped, and where GitHub would make a bare URL, a www.
// address or an email address a link, an escape breaks the match. No tag and no link is
// ever built from the text.
func md(s string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\n':
			b.WriteByte(' ')
			continue
		case strings.IndexByte(mdPunct, c) >= 0,
			i == 0 && c == '#',
			c == ':' && strings.HasPrefix(s[i+1:], "//"),
			c == '.' && i >= 3 && strings.EqualFold(s[i-3:i], "www"),
			c == '@':
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// mdCode is text from outside as a Markdown code span, which shows it verbatim: fenced by
// one backtick more than its longest run of them, with a space inside each end when it
// starts or ends with a backtick, so that no backtick in it ends the span early. A newline
// is a space; a pipe is escaped, which a table cell needs even within a code span.
func mdCode(s string) string {
	s = strings.NewReplacer("\n", " ", "|", `\|`).Replace(s)
	run, longest := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}
