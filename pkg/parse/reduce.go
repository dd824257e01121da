package parse

import (
	"bytes"
	"errors"
	"math"
	"slices"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Reduce says how a histogram family is read when its reader needs only some of its labels:
// the series whose label (its value; "" when the series lacks it) has one of the values in
// Drop are left out, and the others are read with only the labels in Labels, series that
// then share their labels summed into one. On a large API server page the family
// apiserver_request_duration_seconds is most of the lines read; reduced, they are read as
// they stream by and never held.
//
// The reduced family holds what a reader gets by summing the family's series the way
// pkg/model/health sums histograms (counts, sums and buckets of equal bounds added, a series
// without a +Inf bucket counted in one of its own), in the page's order, so that its figures
// are exactly those of the whole family. A reducer that sums otherwise must not use it.
// Lines a reduced family cannot take (a family not typed histogram by a plain "# TYPE" line
// before its samples, say) leave it whole, as it would be read without a Reduce.
type Reduce struct {
	Labels []string
	Drop   map[string][]string
}

// reducer reads the sample lines of one reduced histogram family as the filter passes them
// on, into one record per series of the page (labels not kept), and at the end into the
// family.
type reducer struct {
	family string
	// names are the family's sample names and the label pair __name__="family", as bytes.
	bucketName, sumName, countName string
	nameLabel                      rawLabel
	labels                         []string // Reduce.Labels, sorted
	drop                           map[string][]string
	lines                          int // sample lines read

	records []record         // by first appearance on the page
	bySig   map[uint64]int32 // series signature (as expfmt groups them) -> records index
	keys    []string         // the kept labels' values of each key, joined by a separator byte
	byKey   map[string]int32 // joined values -> keys index
	hint    int              // buckets of the series last added to

	// prev is the series of the previous line when its last label was le: the lines after
	// it that repeat the text before le continue the same series (see prevSeries).
	prev struct {
		text seriesText
		rec  int32 // records index; dropped for a series left out; none for no such line
	}
	scratch []rawLabel // the current line's labels, le aside
	keyBuf  []byte     // the current series' key, reused
	// sumScratch holds the buckets of one key's sum (see sum), reused.
	sumScratch []sumBucket
	sorted     []rawLabel

	err *lineError // the first line that is not valid text exposition
}

const (
	none    int32 = -1
	dropped int32 = -2
)

// rawLabel is a label pair of the current line, aliasing it (or an unescaped copy).
type rawLabel struct{ name, value []byte }

// lineError is a line of the page expfmt rejects, with expfmt's message.
type lineError struct {
	line int
	msg  string
}

// record is one series of the page, as the parser would read it, without its labels.
type record struct {
	key           int32
	sc            uint64 // SampleCount, when scSet
	scf           float64
	scSet, scfSet bool
	sum           float64
	buckets       []recBucket // in the order of the page's lines
}

// recBucket is one bucket line: its bound and its count, as a float (the reader converts
// the integer counts the same way) and whether the page wrote it as an integer.
type recBucket struct {
	ub, count float64
	isFloat   bool
}

func newReducer(family string, r Reduce) *reducer {
	labels := slices.Clone(r.Labels)
	slices.Sort(labels)
	return &reducer{family: family, labels: slices.Compact(labels), drop: r.Drop,
		bucketName: family + "_bucket", sumName: family + "_sum", countName: family + "_count",
		nameLabel: rawLabel{name: []byte(model.MetricNameLabel), value: []byte(family)},
		bySig:     map[uint64]int32{}, byKey: map[string]int32{}}
}

// read takes one sample line of the family (n is its number on the page, line has no
// newline). A line the fast grammar declines is read by expfmt, alone under the family's
// TYPE line: a line expfmt rejects becomes the reducer's error.
func (r *reducer) read(line []byte, n int) {
	if r.err != nil {
		return // the page is invalid: what comes after does not matter
	}
	r.lines++
	if ok, done := r.continueSeries(line); done {
		if !ok {
			r.prev.rec = none
			r.readSlowly(line, n)
		}
		return
	}
	r.prev.rec = none
	if !r.sample(line) {
		r.prev.rec = none
		r.readSlowly(line, n)
	}
}

// sample reads a line as fastParser.sample reads a line of a histogram family, and changes
// nothing unless the whole line is valid.
func (r *reducer) sample(line []byte) bool {
	n := metricNameLen(line)
	if n == 0 || n == len(line) {
		return false
	}
	var isCount, isSum bool
	switch name := line[:n]; {
	case string(name) == r.family, string(name) == r.bucketName:
	case string(name) == r.countName:
		isCount = true
	case string(name) == r.sumName:
		isSum = true
	default:
		return false
	}
	bucket := math.NaN()
	r.scratch = r.scratch[:0]
	lastStart, lastLe := 0, false
	scan := scanLabels(line, n)
	for scan.next() {
		name, value := scan.name, scan.value
		lastStart = scan.start
		lastLe = string(name) == model.BucketLabel
		if lastLe {
			f, err := parseFloat(value)
			if err != nil {
				return false
			}
			bucket = f
			continue
		}
		for _, l := range r.scratch {
			if bytes.Equal(l.name, name) {
				return false
			}
		}
		r.scratch = append(r.scratch, rawLabel{name, value})
	}
	if scan.bad {
		return false
	}
	value, _, ok := (*fastParser)(nil).valueAndTime(scan.rest)
	if !ok || !validCount(isCount || !isSum && !math.IsNaN(bucket), value) {
		return false
	}
	rec := r.series()
	if rec != dropped {
		r.set(rec, isCount, isSum, bucket, value)
	}
	r.prev.rec = none
	if lastLe && !isCount && !isSum {
		r.prev.text.keep(line, lastStart, n)
		r.prev.rec = rec
	}
	return true
}

// validCount is whether value may be a count, when it is one (see countOf).
func validCount(count bool, value float64) bool {
	_, _, ok := countOf(value)
	return !count || ok
}

// continueSeries reads a line that continues the previous line's series, as
// fastParser.continueSeries does; done is false when it does not, and ok false when the line
// is one the fast grammar declines.
func (r *reducer) continueSeries(line []byte) (ok, done bool) {
	if r.prev.rec == none {
		return false, false
	}
	c, ok := r.prev.text.next(line, r.family, model.BucketLabel)
	if !ok {
		return false, false
	}
	value, _, ok := (*fastParser)(nil).valueAndTime(c.rest)
	// A bucket line's value and a _count line's are counts.
	if !ok || !validCount(c.isCount || !c.isSum, value) {
		return false, true
	}
	if r.prev.rec != dropped {
		r.set(r.prev.rec, c.isCount, c.isSum, c.bound, value)
	}
	return true, true
}

// series returns the record of the current line's labels (r.scratch), adding it at its first
// line, or dropped when the series is left out.
func (r *reducer) series() int32 {
	for name, values := range r.drop {
		var v []byte
		for _, l := range r.scratch {
			if string(l.name) == name {
				v = l.value
				break
			}
		}
		for _, d := range values {
			if string(v) == d {
				return dropped
			}
		}
	}
	sig := r.signature()
	if i, ok := r.bySig[sig]; ok {
		return i
	}
	key := r.keyBuf[:0]
	defer func() { r.keyBuf = key[:0] }()
	for i, name := range r.labels {
		if i > 0 {
			key = append(key, model.SeparatorByte)
		}
		for _, l := range r.scratch {
			if string(l.name) == name {
				key = append(key, l.value...)
				break
			}
		}
	}
	k, ok := r.byKey[string(key)]
	if !ok {
		k = int32(len(r.keys))
		s := string(key)
		r.keys = append(r.keys, s)
		r.byKey[s] = k
	}
	i := int32(len(r.records))
	r.records = append(r.records, record{key: k, buckets: make([]recBucket, 0, max(r.hint, 1))})
	r.bySig[sig] = i
	return i
}

// signature is fastParser.signature of the current line's labels.
func (r *reducer) signature() uint64 {
	r.sorted = append(r.sorted[:0], r.nameLabel)
	for _, l := range r.scratch {
		i := len(r.sorted)
		r.sorted = append(r.sorted, l)
		for ; i > 0 && bytes.Compare(r.sorted[i-1].name, l.name) > 0; i-- {
			r.sorted[i] = r.sorted[i-1]
		}
		r.sorted[i] = l
	}
	h := uint64(fnvOffset64)
	for _, l := range r.sorted {
		h = fnvAddLabel(h, l.name, l.value)
	}
	return h
}

// set records one line's value in record i as fastParser.set does in its series: the count,
// the sum, or a bucket (bucket NaN: none).
func (r *reducer) set(i int32, isCount, isSum bool, bucket, value float64) {
	rec := &r.records[i]
	u, integer, _ := countOf(value) // the callers have declined what validCount does not take
	switch {
	case isCount && integer:
		rec.sc, rec.scSet = u, true
	case isCount:
		rec.scf, rec.scfSet = value, true
	case isSum:
		rec.sum = value
	case !math.IsNaN(bucket):
		r.addBucket(rec, recBucket{ub: bucket, count: value, isFloat: !integer})
	}
}

func (r *reducer) addBucket(rec *record, b recBucket) {
	rec.buckets = append(rec.buckets, b)
	r.hint = len(rec.buckets)
}

// readSlowly reads a line the fast grammar declines with expfmt, alone under the family's
// TYPE line, which is how expfmt reads it on the page: a line is a histogram's sample by
// itself (the filter passes the family's lines on only when nothing else on the page could
// take them).
func (r *reducer) readSlowly(line []byte, n int) {
	page := make([]byte, 0, len(line)+len(r.family)+20)
	page = append(append(append(page, "# TYPE "...), r.family...), " histogram\n"...)
	page = append(append(page, line...), '\n')
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(bytes.NewReader(page))
	if err != nil {
		var pe expfmt.ParseError
		msg := err.Error()
		if errors.As(err, &pe) {
			msg = pe.Msg
		}
		r.err = &lineError{line: n, msg: msg}
		return
	}
	mf := fams[r.family]
	if mf == nil || len(mf.GetMetric()) != 1 || mf.GetType() != dto.MetricType_HISTOGRAM {
		r.err = &lineError{line: n, msg: "the line could not be read as a sample of histogram " + r.family}
		return
	}
	m := mf.GetMetric()[0]
	r.scratch = r.scratch[:0]
	for _, l := range m.GetLabel() {
		r.scratch = append(r.scratch, rawLabel{[]byte(l.GetName()), []byte(l.GetValue())})
	}
	rec := r.series()
	if rec == dropped {
		return
	}
	h := m.GetHistogram()
	name := string(metricName(trimBlanks(line)))
	rc := &r.records[rec]
	switch {
	case name == r.family+"_count":
		if h.SampleCountFloat != nil {
			rc.scf, rc.scfSet = h.GetSampleCountFloat(), true
		}
		if h.SampleCount != nil {
			rc.sc, rc.scSet = h.GetSampleCount(), true
		}
	case name == r.family+"_sum":
		if h.SampleSum != nil {
			rc.sum = h.GetSampleSum()
		}
	default:
		for _, b := range h.GetBucket() {
			if b.CumulativeCountFloat != nil {
				r.addBucket(rc, recBucket{ub: b.GetUpperBound(), count: b.GetCumulativeCountFloat(), isFloat: true})
			} else {
				r.addBucket(rc, recBucket{ub: b.GetUpperBound(), count: float64(b.GetCumulativeCount())})
			}
		}
	}
}
