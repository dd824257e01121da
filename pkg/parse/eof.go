package parse

import "bytes"

// eofMarker is the line that ends an OpenMetrics page. Whatever follows it is no part of the
// page: neither a sample to read nor a line to judge.
const eofMarker = "# EOF"

// isEOFMarker reports whether line (with its newline, if any) is the "# EOF" line; blanks
// around it and a CR are allowed, as the text format allows them around a comment.
func isEOFMarker(line []byte) bool {
	line = trimBlanks(line)
	if len(line) < len(eofMarker) || line[0] != '#' {
		return false
	}
	return string(bytes.TrimRight(line, " \t\r\n")) == eofMarker
}
