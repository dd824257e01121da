package health

import (
	"maps"
	"math"
	"sort"
	"strconv"
	"strings"

	dto "github.com/prometheus/client_model/go"
	"google.golang.org/protobuf/proto"
)

// A page without TYPE lines is valid text exposition: every family on it is untyped. The
// gauges and counters the model reads are read as they are (value takes an untyped value),
// but a histogram X has no family of its own there: the parser files its X_bucket, X_sum and
// X_count lines as three untyped families, which the model does not know. Without this, a
// page cleaned of its comments would lose every latency figure and read as healthy.

// withUntypedHistograms returns fams with every histogram the model reads that came without
// a TYPE, read by its shape (untypedHistogram), under its own name and without its parts;
// fams itself when there is none. fams is not changed: it is the page as parsed.
func withUntypedHistograms(fams map[string]*dto.MetricFamily) map[string]*dto.MetricFamily {
	out, cloned := fams, false
	for name := range histogramFamilies {
		if fams[name] != nil {
			continue
		}
		f, _, ok := untypedHistogram(fams, name)
		if !ok {
			continue
		}
		if !cloned {
			out, cloned = maps.Clone(fams), true // fams is left as it is
		}
		out[name] = f
		for _, suffix := range histogramParts {
			delete(out, name+suffix)
		}
	}
	return out
}

// histogramParts are the suffixes of the series of a classic histogram.
var histogramParts = []string{"_bucket", "_sum", "_count"}

// untypedHistogram reads histogram family name from the untyped families of its parts: it is
// a histogram by its shape when name_bucket, name_sum and name_count are all there, every
// name_bucket series has an "le" label holding a bound, and the counts are not negative. Series
// are grouped by their labels ("le" aside), as the parser groups a typed histogram's.
// present says some part is on the page; ok says it was read (f is then the histogram).
func untypedHistogram(fams map[string]*dto.MetricFamily, name string) (f *dto.MetricFamily, present, ok bool) {
	bucket, sum, count := fams[name+"_bucket"], fams[name+"_sum"], fams[name+"_count"]
	if bucket == nil && sum == nil && count == nil {
		return nil, false, false
	}
	if bucket == nil || sum == nil || count == nil || !plainType(bucket) || !plainType(sum) || !plainType(count) {
		return nil, true, false
	}
	f = &dto.MetricFamily{Name: proto.String(name), Type: dto.MetricType_HISTOGRAM.Enum()}
	bySignature := map[string]*dto.Histogram{}
	series := func(labels []*dto.LabelPair) *dto.Histogram {
		key := signature(labels)
		if h := bySignature[key]; h != nil {
			return h
		}
		h := &dto.Histogram{}
		bySignature[key] = h
		f.Metric = append(f.Metric, &dto.Metric{Label: labels, Histogram: h})
		return h
	}
	for _, m := range bucket.GetMetric() {
		bound, labels, ok := cutBound(m.GetLabel())
		v := value(m)
		if !ok || v < 0 || math.IsNaN(bound) {
			return nil, true, false
		}
		b := &dto.Bucket{UpperBound: proto.Float64(bound)}
		b.CumulativeCount, b.CumulativeCountFloat = cumulative(v)
		h := series(labels)
		h.Bucket = append(h.Bucket, b)
	}
	for _, m := range count.GetMetric() {
		v := value(m)
		if v < 0 {
			return nil, true, false
		}
		h := series(m.GetLabel())
		h.SampleCount, h.SampleCountFloat = cumulative(v)
	}
	for _, m := range sum.GetMetric() {
		series(m.GetLabel()).SampleSum = proto.Float64(value(m))
	}
	for _, m := range f.Metric {
		b := m.Histogram.Bucket
		sort.SliceStable(b, func(i, j int) bool { return b[i].GetUpperBound() < b[j].GetUpperBound() })
	}
	return f, true, true
}

// plainType reports whether a part's family holds plain values: untyped, or a TYPE given to
// the part's own name.
func plainType(f *dto.MetricFamily) bool {
	switch f.GetType() {
	case dto.MetricType_UNTYPED, dto.MetricType_GAUGE, dto.MetricType_COUNTER:
		return true
	}
	return false
}

// cutBound returns the bound of a bucket series' "le" label and its other labels; ok is false
// without an le label or when it holds no number.
func cutBound(labels []*dto.LabelPair) (bound float64, rest []*dto.LabelPair, ok bool) {
	found := false
	for _, l := range labels {
		if l.GetName() != "le" {
			rest = append(rest, l)
			continue
		}
		if found {
			return 0, nil, false
		}
		b, err := strconv.ParseFloat(strings.TrimSpace(l.GetValue()), 64)
		if err != nil {
			return 0, nil, false
		}
		bound, found = b, true
	}
	return bound, rest, found
}

// cumulative is a cumulative count as the parser keeps a typed histogram's: an integer when it is
// one, else a float.
func cumulative(v float64) (*uint64, *float64) {
	if u := uint64(v); v == math.Trunc(v) && v < math.MaxUint64 && float64(u) == v {
		return proto.Uint64(u), nil
	}
	return nil, proto.Float64(v)
}

// signature identifies a series by its labels, whatever their order.
func signature(labels []*dto.LabelPair) string {
	pairs := make([]string, 0, len(labels))
	for _, l := range labels {
		pairs = append(pairs, l.GetName()+"\xff"+l.GetValue())
	}
	sort.Strings(pairs)
	return strings.Join(pairs, "\xfe")
}
