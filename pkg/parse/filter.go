package parse

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"
)

// SampleTimeComment starts a comment line that records when a saved page was taken, e.g.
// "# ctrldiag-sample-time: 2026-11-22T03:05:00Z" (RFC 3339). expfmt ignores it.
const SampleTimeComment = "# ctrldiag-sample-time:"

// Keep reports whether the metric family with this name is wanted. A nil Keep keeps all.
type Keep func(family string) bool

// filter is an io.Reader over the lines of a page that Keep accepts. It remembers the line
// number, in the original page, of every line it passes on, so that errors can name it.
//
// The lines it drops are never parsed, so it checks them instead, as cheaply as it can: a page
// that is not text exposition at all (HTML, JSON, binary, protobuf) stops with a NotTextError
// rather than reading as a page without the wanted families. The first sample line it drops
// must be a whole sample (name, labels, a number); the others need only start like one
// (skippedLineOK), and only when their name differs from the previous line's; a line longer
// than the read buffer is judged by its head, before the rest is read. Kept lines are left to
// the parser, whose errors are more precise.
type filter struct {
	in       *bufio.Reader
	sel      *Selector // nil keeps everything
	pending  []byte    // kept line not yet returned to the reader
	line     int       // lines read from the original page
	origLine []int32   // origLine[i] is the original number of the i-th kept line
	long     []byte    // accumulates a line longer than the bufio buffer
	sample   time.Time
	series   int   // sample lines passed on
	err      error // error of the underlying reader (not io.EOF)
	end      error // set once the underlying reader is done: io.EOF or err
	// The decision for the sample name of the previous sample line: consecutive lines are
	// mostly the same metric, so most lines need no lookup at all.
	lastName []byte
	lastKeep bool
	// reducers read the families the selector reduces, once each has its TYPE line; spoiled
	// are those whose lines the parser had before, which it then reads whole (see reduced).
	reducers map[string]*reducer
	spoiled  map[string]bool
	// reducedFamily is the reduced family of the sample name reducedFor ("" for none).
	reducedFor    []byte
	reducedFamily string
	// contentType is the answer's media type when the reader knows it, for a NotTextError.
	contentType string
	started     bool // the first line was read (its byte order mark, if any, dropped)
	sampled     bool // a sample line was seen by wanted (filtered pages only)
	// samples and comments say the page held a sample line, kept or not, and a comment line
	// (see noteContent): a page without samples is an EmptyPageError.
	samples, comments bool
}

// MaxSeries bounds the sample lines of one page that reach the parser: a page of millions of
// series (a label with unbounded values, or a hostile endpoint) would take gigabytes once
// parsed. Real controllers, even kube-apiserver, expose a few thousand series of the families
// the model reads.
const MaxSeries = 200_000

// TooManySeriesError stops a page with more than MaxSeries kept sample lines.
type TooManySeriesError struct{ Line int }

func (e *TooManySeriesError) Error() string {
	return fmt.Sprintf("more than %d series by line %d of the metric families ctrldiag reads: the page is not a controller's usual metrics (a label with unbounded values?); read it with --from-file after filtering it (grep)", MaxSeries, e.Line)
}

func newFilter(r io.Reader, sel *Selector) *filter {
	in := readers.Get().(*bufio.Reader)
	in.Reset(r)
	f := &filter{in: in, sel: sel}
	if ct, ok := r.(ContentTyper); ok {
		f.contentType = ct.ContentType()
	}
	return f
}

// release returns the read buffer for another page; the filter must not be read again.
func (f *filter) release() {
	f.in.Reset(nil)
	readers.Put(f.in)
	f.in = nil
}

// Read fills p with as many kept lines as fit, so that the parser reading from it calls it once
// per buffer rather than once per line.
func (f *filter) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(f.pending) > 0 {
			c := copy(p[n:], f.pending)
			f.pending = f.pending[c:]
			n += c
			continue
		}
		if f.end != nil {
			break
		}
		// pending is empty: the slice next returned last may be overwritten now.
		if f.pending = f.next(); f.err != nil {
			return 0, f.err
		}
	}
	if n == 0 && f.end != nil {
		return 0, f.end
	}
	return n, nil
}

// appendAll appends every kept line to dst: one copy of each, and no Read calls.
func (f *filter) appendAll(dst []byte) ([]byte, error) {
	for f.end == nil {
		dst = append(dst, f.next()...)
	}
	if f.err != nil {
		return dst, f.err
	}
	return dst, nil
}

// next reads one line of the page and returns it if it is kept (with a newline even when
// the page's last line has none), else nil. It sets f.end at the end of the page and f.err
// when the body fails or the page has too many series. The slice is valid until the next
// call.
func (f *filter) next() []byte {
	line, err := f.readLine()
	if err != nil && err != io.EOF {
		// The body failed (too large, timed out, connection lost) or showed it is not text:
		// that is the cause, and a line the failure cut short is not judged.
		f.err, f.end = err, err
		return nil
	}
	var kept []byte
	if len(line) > 0 {
		f.line++
		if !f.samples {
			f.noteContent(line)
		}
		if isEOFMarker(line) {
			// An OpenMetrics page ends here: a sample after it must not count.
			f.end = io.EOF
			return nil
		}
		if f.wanted(line) {
			comment := bytes.TrimLeft(line, " \t")[0] == '#'
			if !comment {
				if f.series++; f.series > MaxSeries {
					f.err = &TooManySeriesError{Line: f.line}
					f.end = f.err
					return nil
				}
			}
			if f.sel != nil && f.sel.reducedNames != nil && f.reduced(line, comment) {
				// A reducer took the line: the parser never sees it.
				if err == io.EOF {
					f.end = err
				}
				return nil
			}
			f.origLine = append(f.origLine, int32(f.line))
			kept = line
			if line[len(line)-1] != '\n' {
				// The last line without a newline: keep it as the parser would see it.
				kept = append(line[:len(line):len(line)], '\n')
			}
		} else if f.err != nil {
			return nil // the line showed that the page is not text exposition
		}
	}
	if err == io.EOF {
		f.end = err
	}
	return kept
}

// readLine returns the next line including its newline. The slice is valid until the next
// call. A line longer than the read buffer is judged by its head: one the parser never sees (a
// HELP line, another comment, a sample of a family not kept) is skipped to its end without
// being held, and stands for itself by a short line that gives the same decision; a kept one
// is held up to MaxLineBytes.
func (f *filter) readLine() ([]byte, error) {
	f.long = f.long[:0]
	f.skipBlankLines()
	for {
		b, err := f.in.ReadSlice('\n')
		if !f.started {
			// A UTF-8 byte order mark (some editors save one) is not part of the first line.
			f.started = true
			b = bytes.TrimPrefix(b, utf8BOM)
		}
		if err == bufio.ErrBufferFull {
			if len(f.long) == 0 {
				if !startsLikeText(b) {
					// Megabytes of binary without a newline are not read to their end.
					return nil, f.notText(f.line+1, trimBlanks(b))
				}
				if stand := f.standIn(b); stand != nil {
					return stand, f.skipRestOfLine()
				}
			}
			if !f.appendLong(b) {
				return nil, &LineTooLongError{Line: f.line + 1}
			}
			continue
		}
		if len(f.long) > 0 {
			if !f.appendLong(b) {
				return nil, &LineTooLongError{Line: f.line + 1}
			}
			return f.long, err
		}
		return b, err
	}
}

// MaxLineBytes bounds a line the parser reads: a label value of a megabyte is still read,
// and without a bound one line would be held several times over (while it grows, in the
// kept lines, parsed), up to some multiple of --max-body-bytes.
const MaxLineBytes = 4 << 20

// LineTooLongError stops a page with a kept line longer than MaxLineBytes.
type LineTooLongError struct{ Line int }

func (e *LineTooLongError) Error() string {
	return fmt.Sprintf("line %d is longer than %d bytes, in a metric family ctrldiag reads: the page is not a controller's usual metrics (a label with an enormous value?); read it with --from-file after filtering it (grep)", e.Line, MaxLineBytes)
}

// appendLong adds b to the long line, doubling its buffer as it grows (append grows a large
// slice by a quarter, which allocates several times the line); false past MaxLineBytes.
func (f *filter) appendLong(b []byte) bool {
	n := len(f.long) + len(b)
	if n > MaxLineBytes {
		return false
	}
	if n > cap(f.long) {
		grown := make([]byte, len(f.long), min(max(2*cap(f.long), n), MaxLineBytes))
		copy(grown, f.long)
		f.long = grown
	}
	f.long = append(f.long, b...)
	return true
}

// standIn returns, for the head of a long line the parser is not to see, a short line that
// the filter decides on the same way, or nil when the line may be kept (or may not be
// judged by its head). head is only valid until the next read.
func (f *filter) standIn(head []byte) []byte {
	h := trimBlanks(head)
	if len(h) > 0 && h[0] == '#' {
		rest := trimBlanks(h[1:])
		if bytes.HasPrefix(rest, []byte("TYPE")) {
			return nil
		}
		return []byte("#\n") // HELP text and other comments are never kept
	}
	if f.sel == nil || len(h) == 0 || h[0] == '{' || h[0] == '"' {
		return nil
	}
	name := metricName(h)
	if len(name) == 0 || len(name) == len(h) || f.sel.sample(name) {
		return nil
	}
	return append(append([]byte{}, name...), " 0\n"...)
}

// skipRestOfLine reads past the end of the current line without holding it.
func (f *filter) skipRestOfLine() error {
	for {
		_, err := f.in.ReadSlice('\n')
		if err != bufio.ErrBufferFull {
			return err
		}
	}
}

// skipBlankLines discards the empty lines at the head of the buffer in one go: a page of
// millions of newlines (a gzip bomb inflates to that) would otherwise cost a call per line.
func (f *filter) skipBlankLines() {
	for {
		buf, _ := f.in.Peek(f.in.Buffered())
		n := 0
		for n < len(buf) && buf[n] == '\n' {
			n++
		}
		if n == 0 {
			return
		}
		f.line += n
		_, _ = f.in.Discard(n)
	}
}

// wanted decides whether one line of the page goes to the parser.
func (f *filter) wanted(line []byte) bool {
	line = trimBlanks(line)
	if len(line) == 0 || line[0] == '\n' {
		return false
	}
	if line[0] == '#' {
		if bytes.HasPrefix(line, []byte(SampleTimeComment)) {
			f.sampleTime(line[len(SampleTimeComment):])
			return false
		}
		rest := trimBlanks(line[1:])
		if !bytes.HasPrefix(rest, []byte("TYPE")) {
			// Other comments mean nothing to the parser, and HELP text is printed nowhere: a
			// page's HELP lines, some of them long, are not kept for every target read.
			return false
		}
		rest = rest[len("TYPE"):]
		if len(rest) == 0 || (rest[0] != ' ' && rest[0] != '\t') {
			return f.sel == nil // "# TYPED ..." is a plain comment; keep odd lines only unfiltered
		}
		return f.sel == nil || f.sel.comment(metricName(trimBlanks(rest)))
	}
	if f.sel == nil {
		return true // the parser reads every line
	}
	name := metricName(line)
	if len(name) > 0 && f.lastName != nil && bytes.Equal(name, f.lastName) {
		return f.lastKeep // this name's line was checked, or kept
	}
	keep := len(name) > 0 && f.sel.sample(name)
	first := !f.sampled
	f.sampled = true
	if !keep && !skippedLineOK(line, name, first) {
		f.notText(f.line, line)
		return false
	}
	if len(name) > 0 {
		f.lastName = append(f.lastName[:0], name...)
		f.lastKeep = keep
	}
	return keep
}

// notText stops the page: line n, which starts with start, is not text exposition.
func (f *filter) notText(n int, start []byte) error {
	f.err = NewNotTextError(n, start, f.contentType)
	f.end = f.err
	return f.err
}

// trimBlanks drops leading blanks and tabs.
func trimBlanks(s []byte) []byte {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	return s
}

func (f *filter) sampleTime(v []byte) {
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(string(v)))
	if err == nil && f.sample.IsZero() {
		f.sample = t
	}
}

// metricName returns the metric name at the start of s: the text before '{', a blank or the
// end of line, or a quoted UTF-8 name ("name" or {"name", ...}). The result aliases s.
func metricName(s []byte) []byte {
	if len(s) > 1 && s[0] == '{' {
		s = trimBlanks(s[1:])
	}
	if len(s) > 0 && s[0] == '"' {
		if end := bytes.IndexByte(s[1:], '"'); end >= 0 {
			return s[1 : 1+end]
		}
		return nil
	}
	for i, c := range s {
		switch c {
		case '{', ' ', '\t', '\n', '\r':
			return s[:i]
		}
	}
	return s
}

// familyOf strips the sample suffixes that histograms and summaries add to their family name.
func familyOf(name string) string {
	for _, suffix := range []string{"_bucket", "_count", "_sum", "_gcount", "_gsum"} {
		if strings.HasSuffix(name, suffix) {
			return strings.TrimSuffix(name, suffix)
		}
	}
	return name
}
