package parse

import (
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/model"
)

// prevSeries is the summary or histogram series of the previous sample line, when that
// line's last label was its le (or quantile) label: the bucket lines of one series follow
// each other and differ only there, so the next line that repeats the text before it
// continues the same series without reading its labels again. So do the series' _sum and
// _count lines, which repeat its labels without le or quantile; the series stays the previous
// one after them, so that its _count line after its _sum line continues it too.
type prevSeries struct {
	text   seriesText  // the previous line's text up to its last label
	series *dto.Metric // nil when the previous line is not such a line
	typ    dto.MetricType
	family string // the series' family: its _sum and _count lines are named after it
}

// continueSeries reads line when it continues the previous line's series (see seriesText.next).
// done is false when it does not (nothing is changed then, and sample reads the line in full);
// ok is false when the line is invalid.
//
// Reading the line in full would find the same family (nothing changed since the previous
// line; comments reset prev; no family of a _sum or _count name exists), the same labels,
// already checked, and so the same signature and series.
func (p *fastParser) continueSeries(line []byte) (ok, done bool) {
	prev := &p.prev
	if prev.series == nil {
		return false, false
	}
	special := model.BucketLabel
	if prev.typ == dto.MetricType_SUMMARY {
		special = model.QuantileLabel
	}
	c, ok := prev.text.next(line, prev.family, special)
	if !ok {
		return false, false
	}
	if c.name != nil && p.families[string(c.name)] != nil {
		return false, false // a family of that name takes the line
	}
	value, timestamp, ok := p.valueAndTime(c.rest)
	if !ok {
		return false, true
	}
	quantile, bucket := c.bound, c.bound
	return p.set(prev.series, prev.typ, c.isCount, c.isSum, quantile, bucket, value, timestamp), true
}

// group returns the summary or histogram series that the current line's labels (le and
// quantile aside) belong to, adding a new one to the family when there is none yet.
func (p *fastParser) group(bySignature map[uint64]*dto.Metric, mf *dto.MetricFamily) *dto.Metric {
	sig := p.signature(mf.GetName())
	if existing := bySignature[sig]; existing != nil {
		return existing
	}
	m := p.newMetric()
	bySignature[sig] = m
	mf.Metric = append(mf.Metric, m)
	return m
}

// newMetric returns a series with the current line's labels, in the line's order.
func (p *fastParser) newMetric() *dto.Metric {
	m := p.alloc.metrics.next()
	if len(p.labels) > 0 {
		m.Label = make([]*dto.LabelPair, len(p.labels))
		for i, l := range p.labels {
			pair := p.alloc.pairs.next()
			pair.Name, pair.Value = l.name, l.value
			m.Label[i] = pair
		}
	}
	return m
}

// signature is model.LabelsToSignature of the current line's labels and the family name as
// __name__, which expfmt groups the lines of summaries and histograms by, without building
// the map it takes.
func (p *fastParser) signature(family string) uint64 {
	p.sorted = append(p.sorted[:0], label{name: &metricNameLabel, value: &family})
	for _, l := range p.labels {
		// Insertion sort: a series has a few labels.
		i := len(p.sorted)
		p.sorted = append(p.sorted, l)
		for ; i > 0 && *p.sorted[i-1].name > *l.name; i-- {
			p.sorted[i] = p.sorted[i-1]
		}
		p.sorted[i] = l
	}
	h := uint64(fnvOffset64)
	for _, l := range p.sorted {
		h = fnvAddLabel(h, *l.name, *l.value)
	}
	return h
}

var metricNameLabel = model.MetricNameLabel

// FNV-1a, the hash of model's label signatures.
const (
	fnvOffset64 = 14695981039346656037
	fnvPrime64  = 1099511628211
)

// fnvAddLabel adds a label pair to h as model.LabelsToSignature does. The parser (strings)
// and the reducer (bytes) both hash through it: expfmt groups series by this hash, so both
// must compute it exactly alike.
func fnvAddLabel[T string | []byte](h uint64, name, value T) uint64 {
	h = fnvAdd(h, name)
	h = fnvAddByte(h, model.SeparatorByte)
	h = fnvAdd(h, value)
	return fnvAddByte(h, model.SeparatorByte)
}

func fnvAdd[T string | []byte](h uint64, s T) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime64
	}
	return h
}

func fnvAddByte(h uint64, b byte) uint64 {
	h ^= uint64(b)
	h *= fnvPrime64
	return h
}
