package parse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Page is the parsed content of one metrics page.
type Page struct {
	// Families holds the kept metric families by name.
	Families map[string]*dto.MetricFamily
	// SampleTime is the time a "# ctrldiag-sample-time:" comment gives, zero without one.
	SampleTime time.Time
}

// Parse reads a text exposition page from r, keeping the families keep accepts (all when
// keep is nil). source names the page in errors; a page without a single sample line, kept
// or not, is an EmptyPageError. Parse never panics: a crash of the parser
// becomes an error naming the source and the line when it is known.
func Parse(source string, r io.Reader, keep Keep) (page *Page, err error) {
	return ParseSelected(source, r, NewSelector(keep))
}

// ParseSelected is Parse with a Selector, which many pages may share (nil keeps everything).
func ParseSelected(source string, r io.Reader, sel *Selector) (page *Page, err error) {
	f := newFilter(r, sel)
	defer f.release()
	defer func() {
		if p := recover(); p != nil {
			page = nil
			err = fmt.Errorf("%s: the metrics parser failed near line %d: %v; the page is not valid Prometheus text format", source, f.line, p)
		}
	}()
	var fams map[string]*dto.MetricFamily
	var perr error
	if sel == nil {
		// Everything is kept: stream it straight into expfmt rather than hold the page.
		parser := expfmt.NewTextParser(model.UTF8Validation)
		fams, perr = parser.TextToMetricFamilies(f)
	} else {
		// The kept lines are a small part of a large page, and most of a controller's: read
		// them whole, parse them fast, and let expfmt read them when the fast path declines.
		buf := keptBuffers.Get().(*[]byte)
		kept, rerr := f.appendAll((*buf)[:0])
		defer func() {
			// Nothing parsed keeps a reference to kept: names and values are copied.
			if cap(kept) <= maxPooledKept {
				*buf = kept[:0]
				keptBuffers.Put(buf)
			}
		}()
		if rerr == nil {
			var ok bool
			if fams, ok = parseFast(kept); !ok {
				parser := expfmt.NewTextParser(model.UTF8Validation)
				fams, perr = parser.TextToMetricFamilies(bytes.NewReader(kept))
			}
		}
	}
	if f.err != nil {
		// The body failed (too large, timed out, connection lost), or the page is not text
		// exposition at all (NotTextError): that is the real cause.
		return nil, fmt.Errorf("%s: %w", source, f.err)
	}
	if rerr := f.reducerError(); perr != nil || rerr != nil {
		// The first invalid line of the page, as expfmt would stop at it reading it whole.
		var pe expfmt.ParseError
		if perr != nil && !errors.As(perr, &pe) {
			return nil, fmt.Errorf("%s: %w", source, perr)
		}
		line, msg := 0, ""
		if perr != nil {
			line, msg = f.original(pe.Line), pe.Msg
		}
		if rerr != nil && (perr == nil || rerr.line < line) {
			line, msg = rerr.line, rerr.msg
		}
		return nil, fmt.Errorf("%s: line %d: %s; the page is not valid Prometheus text format", source, line, msg)
	}
	if !f.samples {
		// Not even a sample nobody asked for: no metrics page at all.
		return nil, fmt.Errorf("%s: %w", source, &EmptyPageError{Comments: f.comments})
	}
	f.addReduced(fams)
	return &Page{Families: fams, SampleTime: f.sample}, nil
}

// original maps a line number of the filtered stream to the line number of the page.
func (f *filter) original(filtered int) int {
	switch {
	case filtered >= 1 && filtered <= len(f.origLine):
		return int(f.origLine[filtered-1])
	case filtered > len(f.origLine):
		return f.line // past the last kept line: the end of the page
	}
	return filtered
}
