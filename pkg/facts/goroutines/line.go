package goroutines

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"time"
)

// maxWaiting is the longest wait a header may say: longer ones (no process has run that
// long) are taken as this, not wrapped around to a negative duration.
const maxWaiting = time.Duration(math.MaxInt64 / int64(time.Minute) * int64(time.Minute))

var (
	headerStart = []byte("goroutine ")
	headerEnd   = []byte("]:")
	createdBy   = []byte("created by ")
	inGoroutine = []byte(" in goroutine ")
	elided      = []byte("...") // "...additional frames elided..."
	offset      = []byte(" +0x")
)

// isHeader says whether line may be a goroutine's header, cheaply: only those are read as text.
func isHeader(line []byte) bool {
	return bytes.HasPrefix(line, headerStart) && bytes.HasSuffix(line, headerEnd)
}

// header parses "goroutine 42 [select, 12 minutes, locked to thread]:".
func header(line string) (Goroutine, bool) {
	rest, ok := strings.CutPrefix(line, "goroutine ")
	if !ok || !strings.HasSuffix(line, "]:") {
		return Goroutine{}, false
	}
	idText, status, ok := strings.Cut(rest, " [")
	if !ok {
		return Goroutine{}, false
	}
	id, err := strconv.Atoi(idText)
	if err != nil {
		return Goroutine{}, false
	}
	status = strings.TrimSuffix(status, "]:")
	state, more, _ := strings.Cut(status, ", ")
	g := Goroutine{ID: id, State: state}
	for more != "" {
		var p string
		p, more, _ = strings.Cut(more, ", ")
		if n, unit, ok := strings.Cut(p, " "); ok && (unit == "minutes" || unit == "minute") {
			g.Waiting = waiting(n)
		}
	}
	return g, true
}

// waiting reads the minutes of a header as a duration, up to maxWaiting; 0 when they are no
// number of minutes.
func waiting(minutes string) time.Duration {
	m, err := strconv.ParseInt(minutes, 10, 64)
	switch {
	case err != nil && m == math.MaxInt64, err == nil && m > int64(maxWaiting/time.Minute):
		return maxWaiting // out of range: as long as can be said
	case err != nil || m < 0:
		return 0
	}
	return time.Duration(m) * time.Minute
}

// funcName is the function of a frame line, without its arguments: "pkg.(*T).M(0xc0, ...)"
// gives "pkg.(*T).M". Generic instantiations "[...]" are kept.
func funcName(line []byte) []byte {
	line = bytes.TrimSpace(line)
	if i := bytes.LastIndexByte(line, '('); i > 0 && bytes.HasSuffix(line, []byte(")")) {
		return line[:i]
	}
	return line
}

// fileLine parses "\t/path/file.go:123 +0x1f".
func fileLine(line []byte) ([]byte, int) {
	line = bytes.TrimSpace(line)
	if i := bytes.LastIndex(line, offset); i > 0 {
		line = line[:i]
	}
	i := bytes.LastIndexByte(line, ':')
	if i < 0 {
		return line, 0
	}
	n, ok := number(line[i+1:])
	if !ok {
		return line, 0
	}
	return line[:i], n
}

// number reads a line number: decimal digits, at most math.MaxInt32 (a larger one is taken as
// that).
func number(b []byte) (int, bool) {
	if len(b) == 0 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = min(n*10+int64(c-'0'), math.MaxInt32)
	}
	return int(n), true
}
