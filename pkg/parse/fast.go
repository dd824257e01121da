package parse

import (
	"bytes"
	"math"
	"strconv"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/model"
	"google.golang.org/protobuf/proto"
)

// parseFast parses the kept lines of a page the way expfmt's TextParser (UTF-8 validation)
// does, for the form that client_golang and every controller writes: "# HELP name text",
// "# TYPE name type", and `name{label="value",...} value [timestamp]` with single spaces.
// expfmt reads a byte at a time through a state machine and allocates for every token; on a
// controller's page, where most lines are kept, it was most of the plugin's CPU.
//
// It reports ok=false on anything else, valid or not (blanks in other places, quoted UTF-8
// names, CR, a second HELP, an unknown type, a bad float, ...): the caller then parses the
// same bytes with expfmt, so that results and errors are always expfmt's own. FuzzFastEqualsExpfmt
// checks that whatever it accepts, it reads exactly as expfmt does.
func parseFast(page []byte) (fams map[string]*dto.MetricFamily, ok bool) {
	defer func() {
		if recover() != nil {
			fams, ok = nil, false // a bug here must not cost the page: expfmt reads it
		}
	}()
	p := fastParser{
		families:   map[string]*dto.MetricFamily{},
		strings:    map[string]*string{},
		summaries:  map[uint64]*dto.Metric{},
		histograms: map[uint64]*dto.Metric{},
	}
	for len(page) > 0 {
		end := bytes.IndexByte(page, '\n')
		if end < 0 {
			return nil, false // the filter ends every line; the parser would see a truncated one
		}
		line := page[:end]
		page = page[end+1:]
		var lineOK bool
		if len(line) > 0 && line[0] == '#' {
			p.prev.series = nil // a TYPE line may change what the next sample line means
			lineOK = p.comment(line)
		} else {
			lineOK = p.sample(line)
		}
		if !lineOK {
			return nil, false
		}
	}
	for name, mf := range p.families {
		if len(mf.GetMetric()) == 0 {
			delete(p.families, name)
		}
	}
	for _, m := range p.histograms {
		normalizeHistogram(m.GetHistogram())
	}
	return p.families, true
}

type fastParser struct {
	families map[string]*dto.MetricFamily
	// strings interns label names and values: a page repeats them on every line, and the
	// model only reads them, so the series may share one copy.
	strings               map[string]*string
	summaries, histograms map[uint64]*dto.Metric // by label signature, as expfmt groups them
	labels                []label                // the current line's labels, reused
	sorted                []label                // the same and the family name, by name, for the signature
	prev                  prevSeries             // the previous line's series, which the next line may continue
	bucketHint            int                    // buckets of the histogram series last added to
	alloc                 slabs
}

// label is a label pair of the current line, interned.
type label struct{ name, value *string }

func (p *fastParser) intern(b []byte) *string {
	if s, ok := p.strings[string(b)]; ok {
		return s
	}
	s := string(b)
	ps := &s
	p.strings[s] = ps
	return ps
}

// comment reads "# HELP name text" and "# TYPE name type".
func (p *fastParser) comment(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, []byte("# "))
	if !ok {
		return false
	}
	var help bool
	switch {
	case bytes.HasPrefix(rest, []byte("HELP ")):
		help = true
	case bytes.HasPrefix(rest, []byte("TYPE ")):
	default:
		return false
	}
	rest = rest[5:]
	n := metricNameLen(rest)
	// One blank after the name and some text: other layouts have corner cases (a family
	// created without text, blanks skipped) that expfmt handles.
	if n == 0 || n+1 >= len(rest) || rest[n] != ' ' || isBlank(rest[n+1]) {
		return false
	}
	mf, _, _ := p.family(rest[:n])
	text := rest[n+1:]
	if bytes.IndexByte(text, '\r') >= 0 {
		return false
	}
	if help {
		if mf.Help != nil {
			return false // "second HELP line": expfmt's error
		}
		s, ok := unescapeHelp(text)
		if !ok {
			return false
		}
		mf.Help = proto.String(s)
		return true
	}
	if mf.Type != nil {
		return false // "second TYPE line, or TYPE reported after samples"
	}
	var t dto.MetricType
	switch string(text) {
	case "counter":
		t = dto.MetricType_COUNTER
	case "gauge":
		t = dto.MetricType_GAUGE
	case "histogram":
		t = dto.MetricType_HISTOGRAM
	case "summary":
		t = dto.MetricType_SUMMARY
	case "untyped":
		t = dto.MetricType_UNTYPED
	default:
		return false
	}
	mf.Type = t.Enum()
	return true
}

// family finds or creates the family a metric name belongs to, as expfmt's
// setOrCreateCurrentMF does: a _sum, _count or _bucket name joins its summary or histogram.
func (p *fastParser) family(name []byte) (mf *dto.MetricFamily, isCount, isSum bool) {
	if mf = p.families[string(name)]; mf != nil {
		return mf, false, false
	}
	count, sum := bytes.HasSuffix(name, []byte("_count")) && len(name) > 6,
		bytes.HasSuffix(name, []byte("_sum")) && len(name) > 4
	base := name
	switch {
	case count:
		base = name[:len(name)-6]
	case sum:
		base = name[:len(name)-4]
	}
	if mf = p.families[string(base)]; mf != nil && mf.GetType() == dto.MetricType_SUMMARY {
		return mf, count, sum
	}
	if !count && !sum && bytes.HasSuffix(name, []byte("_bucket")) && len(name) > 7 {
		base = name[:len(name)-7]
	}
	if mf = p.families[string(base)]; mf != nil && mf.GetType() == dto.MetricType_HISTOGRAM {
		return mf, count, sum
	}
	s := string(name)
	mf = &dto.MetricFamily{Name: proto.String(s)}
	p.families[s] = mf
	return mf, false, false
}

// sample reads `name{label="value",...} value [timestamp]`.
func (p *fastParser) sample(line []byte) bool {
	if ok, done := p.continueSeries(line); done {
		return ok
	}
	p.prev.series = nil
	n := metricNameLen(line)
	if n == 0 || n == len(line) {
		return false
	}
	mf, isCount, isSum := p.family(line[:n])
	if mf.Type == nil {
		mf.Type = dto.MetricType_UNTYPED.Enum()
	}
	typ := mf.GetType()
	grouped := typ == dto.MetricType_SUMMARY || typ == dto.MetricType_HISTOGRAM
	quantile, bucket := math.NaN(), math.NaN()
	p.labels = p.labels[:0]
	lastStart, lastSpecial := 0, false // where the last label starts, and whether it is le or quantile
	scan := scanLabels(line, n)
	for scan.next() {
		name, value := scan.name, scan.value
		lastStart = scan.start
		special := typ == dto.MetricType_SUMMARY && string(name) == model.QuantileLabel ||
			typ == dto.MetricType_HISTOGRAM && string(name) == model.BucketLabel
		lastSpecial = special
		if special {
			f, err := parseFloat(value)
			if err != nil {
				return false
			}
			if typ == dto.MetricType_SUMMARY {
				quantile = f
			} else {
				bucket = f
			}
			continue
		}
		for _, l := range p.labels {
			if *l.name == string(name) {
				return false // duplicate label names: expfmt's error
			}
		}
		p.labels = append(p.labels, label{p.intern(name), p.intern(value)})
	}
	if scan.bad {
		return false
	}
	value, timestamp, ok := p.valueAndTime(scan.rest)
	if !ok {
		return false
	}
	var m *dto.Metric
	switch typ {
	case dto.MetricType_SUMMARY:
		m = p.group(p.summaries, mf)
	case dto.MetricType_HISTOGRAM:
		m = p.group(p.histograms, mf)
	default:
		m = p.newMetric()
		mf.Metric = append(mf.Metric, m)
	}
	if !p.set(m, typ, isCount, isSum, quantile, bucket, value, timestamp) {
		return false
	}
	if grouped && lastSpecial && !isCount && !isSum {
		p.prev.text.keep(line, lastStart, n)
		p.prev.series, p.prev.typ, p.prev.family = m, typ, mf.GetName()
	}
	return true
}

// valueAndTime reads ` value [timestamp]`, the end of a sample line.
func (p *fastParser) valueAndTime(rest []byte) (value float64, timestamp *int64, ok bool) {
	if len(rest) < 2 || rest[0] != ' ' {
		return 0, nil, false
	}
	rest = rest[1:]
	valueEnd := bytes.IndexByte(rest, ' ')
	var ts []byte
	if valueEnd < 0 {
		valueEnd = len(rest)
	} else {
		ts = rest[valueEnd+1:]
		if len(ts) == 0 {
			return 0, nil, false
		}
	}
	valueText := rest[:valueEnd]
	if len(valueText) == 0 || bytes.IndexByte(valueText, '\t') >= 0 || bytes.IndexByte(valueText, '\r') >= 0 {
		return 0, nil, false
	}
	value, err := parseFloat(valueText)
	if err != nil {
		return 0, nil, false
	}
	if ts != nil {
		t, err := strconv.ParseInt(string(ts), 10, 64)
		if err != nil {
			return 0, nil, false
		}
		timestamp = proto.Int64(t)
	}
	return value, timestamp, true
}

// set records one sample line's value in its series m: the value of a counter, gauge or
// untyped series, or a quantile, bucket, count or sum of a summary or histogram.
func (p *fastParser) set(m *dto.Metric, typ dto.MetricType, isCount, isSum bool, quantile, bucket, value float64, timestamp *int64) bool {
	switch typ {
	case dto.MetricType_COUNTER:
		m.Counter = p.alloc.counters.next()
		m.Counter.Value = p.alloc.float(value)
	case dto.MetricType_GAUGE:
		m.Gauge = p.alloc.gauges.next()
		m.Gauge.Value = p.alloc.float(value)
	case dto.MetricType_UNTYPED:
		m.Untyped = &dto.Untyped{Value: p.alloc.float(value)}
	case dto.MetricType_SUMMARY:
		if m.Summary == nil {
			m.Summary = &dto.Summary{}
		}
		switch {
		case isCount:
			m.Summary.SampleCount = p.alloc.uint(uint64(value))
		case isSum:
			m.Summary.SampleSum = p.alloc.float(value)
		case !math.IsNaN(quantile):
			m.Summary.Quantile = append(m.Summary.Quantile, &dto.Quantile{Quantile: p.alloc.float(quantile), Value: p.alloc.float(value)})
		}
	case dto.MetricType_HISTOGRAM:
		if m.Histogram == nil {
			m.Histogram = p.alloc.histograms.next()
		}
		h := m.Histogram
		switch {
		case isCount:
			u, integer, ok := countOf(value)
			switch {
			case !ok:
				return false
			case integer:
				h.SampleCount = p.alloc.uint(u)
			default:
				h.SampleCountFloat = p.alloc.float(value)
			}
		case isSum:
			h.SampleSum = p.alloc.float(value)
		case !math.IsNaN(bucket):
			b := p.alloc.buckets.next()
			b.UpperBound = p.alloc.float(bucket)
			u, integer, ok := countOf(value)
			switch {
			case !ok:
				return false
			case integer:
				b.CumulativeCount = p.alloc.uint(u)
			default:
				b.CumulativeCountFloat = p.alloc.float(value)
			}
			if h.Bucket == nil {
				h.Bucket = make([]*dto.Bucket, 0, max(p.bucketHint, 1))
			}
			h.Bucket = append(h.Bucket, b)
			p.bucketHint = len(h.Bucket)
		}
	default:
		return false
	}
	if timestamp != nil {
		m.TimestampMs = timestamp
	}
	return true
}

// countOf reads value as a histogram's count or a bucket's: an integer is kept as one (u),
// any other value as a float. ok is false for a negative value that is not an integer, which
// the fast grammar declines. fastParser.set and the reducer both take counts through it, so
// that a reduced family keeps the same counts, of the same kind, as the whole one.
func countOf(value float64) (u uint64, integer, ok bool) {
	u = uint64(value)
	integer = value == float64(u)
	return u, integer, integer || !(value < 0)
}

// metricNameLen is the length of the legacy (unquoted) metric name at the start of s.
func metricNameLen(s []byte) int { return nameLen(s, true) }

// labelNameLen is the length of the legacy (unquoted) label name at the start of s.
func labelNameLen(s []byte) int { return nameLen(s, false) }

// nameLen is the length of the legacy name at the start of s: [a-zA-Z_] then also digits;
// colons only in metric names.
func nameLen(s []byte, colon bool) int {
	for i, c := range s {
		if c == '_' || c == ':' && colon || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return i
	}
	return len(s)
}

// labelValue reads a label value after its opening quote: the value, unescaped, and the
// bytes used including the closing quote. Values without escapes alias s.
func labelValue(s []byte) (value []byte, used int, ok bool) {
	end := bytes.IndexByte(s, '"')
	if end < 0 {
		return nil, 0, false
	}
	if bytes.IndexByte(s[:end], '\\') < 0 {
		value, used = s[:end], end+1
	} else if value, used, ok = unescape(s, true); !ok {
		return nil, 0, false
	}
	if !isValidUTF8(value) {
		return nil, 0, false
	}
	return value, used, true
}

// unescapeHelp undoes the escapes in HELP text.
func unescapeHelp(s []byte) (string, bool) {
	if bytes.IndexByte(s, '\\') < 0 {
		return string(s), true
	}
	out, _, ok := unescape(s, false)
	return string(out), ok
}

// unescape undoes the escapes expfmt reads in label values and HELP text (\\, \" and \n;
// any other is invalid) in s, up to the first unescaped quote when quoted (used counts it),
// else to the end of s.
func unescape(s []byte, quoted bool) (out []byte, used int, ok bool) {
	out = make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' && quoted:
			return out, i + 1, true
		case c == '\\':
			if i+1 == len(s) {
				return nil, 0, false
			}
			i++
			switch s[i] {
			case '"', '\\':
				out = append(out, s[i])
			case 'n':
				out = append(out, '\n')
			default:
				return nil, 0, false
			}
		default:
			out = append(out, c)
		}
	}
	if quoted {
		return nil, 0, false // no closing quote
	}
	return out, len(s), true
}

// parseFloat is expfmt's: strconv.ParseFloat without hex floats or digit separators.
func parseFloat(b []byte) (float64, error) {
	if v, ok := smallUint(b); ok {
		return v, nil // most values on a page are counts
	}
	if bytes.ContainsAny(b, "pP_") {
		return 0, strconv.ErrSyntax
	}
	return strconv.ParseFloat(string(b), 64)
}

// smallUint reads b when it is up to 15 decimal digits: below 2^53, the float is exact,
// as strconv.ParseFloat gives it.
func smallUint(b []byte) (float64, bool) {
	if len(b) == 0 || len(b) > 15 {
		return 0, false
	}
	var n uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	return float64(n), true
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

func isValidUTF8(b []byte) bool { return model.LabelValue(b).IsValid() }

// normalizeHistogram is expfmt's: a histogram's buckets and count are either all integers
// or, when any of them is not, all floats.
func normalizeHistogram(h *dto.Histogram) {
	if h == nil {
		return
	}
	anyFloats := h.GetSampleCountFloat() != 0
	for _, b := range h.GetBucket() {
		if anyFloats {
			break
		}
		anyFloats = b.GetCumulativeCountFloat() != 0
	}
	if !anyFloats {
		return
	}
	if h.GetSampleCountFloat() == 0 {
		h.SampleCountFloat = proto.Float64(float64(h.GetSampleCount()))
		h.SampleCount = nil
	}
	for _, b := range h.GetBucket() {
		if b.GetCumulativeCountFloat() == 0 {
			b.CumulativeCountFloat = proto.Float64(float64(b.GetCumulativeCount()))
			b.CumulativeCount = nil
		}
	}
}
