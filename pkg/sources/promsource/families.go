package promsource

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	dto "github.com/prometheus/client_model/go"
	"google.golang.org/protobuf/proto"
)

// series is one series of a target, its target labels removed: a float value, or a native
// histogram with the boundaries it is read at (see classicHistogram).
type series struct {
	name   string
	labels map[string]string
	value  float64
	hist   *Histogram
	bounds []float64
}

// kinds of a series' family.
const (
	gauge = iota
	counter
	histogramPart
	summaryPart
)

// counterLike reports whether a series only grows between resets: counters and the parts of
// histograms and summaries, told by their names as the exposition conventions give them.
func counterLike(name string) bool {
	for _, s := range []string{"_total", "_bucket", "_sum", "_count"} {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// families builds the metric families of one sample of a target from its series. wanted says
// which family names the model reads (a histogram's _bucket, _sum and _count belong to the
// family of their base name). Series are typed by their names and labels: a _bucket series
// with le is a histogram's, a base series with quantile a summary's, a wanted name ending in
// _total a counter, any other wanted name a gauge. A native histogram becomes a classic one,
// unless the same series has classic buckets too: those are read.
func families(ss []series, wanted func(string) bool) map[string]*dto.MetricFamily {
	bases := map[string]int{}
	classic := map[string]bool{}
	for _, s := range ss {
		if b, ok := strings.CutSuffix(s.name, "_bucket"); ok && s.labels["le"] != "" && wanted(b) {
			bases[b] = histogramPart
			classic[b+"\xff"+labelKey(s.labels, "le")] = true
		} else if s.labels["quantile"] != "" && wanted(s.name) {
			bases[s.name] = summaryPart
		}
	}
	out := map[string]*dto.MetricFamily{}
	hist := map[string]*dto.Metric{}
	slab := newScalarSlab(len(ss))
	for _, s := range ss {
		base, kind := s.name, gauge
		switch {
		case s.hist != nil:
			if wanted(s.name) && !classic[s.name+"\xff"+labelKey(s.labels)] {
				f := out[s.name]
				if f == nil {
					f = &dto.MetricFamily{Name: proto.String(s.name), Type: dto.MetricType_HISTOGRAM.Enum()}
					out[s.name] = f
				}
				f.Metric = append(f.Metric, &dto.Metric{Label: labelPairs(s.labels), Histogram: classicHistogram(s.hist, s.bounds)})
			}
			continue
		case bases[s.name] == summaryPart && s.labels["quantile"] != "":
			kind = summaryPart
		case trimPart(s.name) != s.name && bases[trimPart(s.name)] != 0:
			base, kind = trimPart(s.name), bases[trimPart(s.name)]
		case !wanted(s.name):
			continue
		case strings.HasSuffix(s.name, "_total"):
			kind = counter
		}
		f := out[base]
		if f == nil {
			f = &dto.MetricFamily{Name: proto.String(base), Type: familyType(kind).Enum()}
			out[base] = f
		}
		if kind == gauge || kind == counter {
			f.Metric = append(f.Metric, slab.scalar(labelPairs(s.labels), s.value, kind == counter))
			continue
		}
		key := base + "\xff" + labelKey(s.labels, "le", "quantile")
		m := hist[key]
		if m == nil {
			m = &dto.Metric{Label: labelPairs(without(s.labels, "le", "quantile"))}
			if kind == histogramPart {
				m.Histogram = &dto.Histogram{SampleCountFloat: proto.Float64(0), SampleSum: proto.Float64(0)}
			} else {
				m.Summary = &dto.Summary{SampleCount: proto.Uint64(0), SampleSum: proto.Float64(0)}
			}
			hist[key] = m
			f.Metric = append(f.Metric, m)
		}
		addPart(m, s)
	}
	for _, f := range out {
		for _, m := range f.Metric {
			if h := m.Histogram; h != nil {
				sort.Slice(h.Bucket, func(i, j int) bool { return h.Bucket[i].GetUpperBound() < h.Bucket[j].GetUpperBound() })
			}
		}
		sortByLabels(f.Metric)
	}
	return out
}

// addPart files a _bucket, _sum, _count or quantile series into its histogram or summary.
// Counts are kept as floats: a window's first sample rebuilt after a reset may be below zero.
func addPart(m *dto.Metric, s series) {
	switch {
	case strings.HasSuffix(s.name, "_sum"):
		if m.Histogram != nil {
			m.Histogram.SampleSum = proto.Float64(s.value)
		} else {
			m.Summary.SampleSum = proto.Float64(s.value)
		}
	case strings.HasSuffix(s.name, "_count"):
		if m.Histogram != nil {
			m.Histogram.SampleCountFloat = proto.Float64(s.value)
		} else {
			m.Summary.SampleCount = proto.Uint64(uint64(math.Max(0, s.value)))
		}
	case m.Histogram != nil:
		ub, err := strconv.ParseFloat(s.labels["le"], 64)
		if err != nil {
			return
		}
		m.Histogram.Bucket = append(m.Histogram.Bucket, &dto.Bucket{UpperBound: proto.Float64(ub), CumulativeCountFloat: proto.Float64(s.value)})
	default:
		q, err := strconv.ParseFloat(s.labels["quantile"], 64)
		if err != nil {
			return
		}
		m.Summary.Quantile = append(m.Summary.Quantile, &dto.Quantile{Quantile: proto.Float64(q), Value: proto.Float64(s.value)})
	}
}

func familyType(kind int) dto.MetricType {
	switch kind {
	case counter:
		return dto.MetricType_COUNTER
	case histogramPart:
		return dto.MetricType_HISTOGRAM
	case summaryPart:
		return dto.MetricType_SUMMARY
	}
	return dto.MetricType_GAUGE
}

// trimPart is the base name of a _bucket, _sum or _count series (the name itself otherwise).
func trimPart(name string) string {
	for _, s := range []string{"_bucket", "_sum", "_count"} {
		if b, ok := strings.CutSuffix(name, s); ok {
			return b
		}
	}
	return name
}

func labelPairs(l map[string]string) []*dto.LabelPair {
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	// The pairs and their values are allocated together: a target's series are many.
	pairs := make([]dto.LabelPair, len(keys))
	values := make([]string, len(keys))
	out := make([]*dto.LabelPair, len(keys))
	for i, k := range keys {
		values[i] = l[k]
		pairs[i].Name, pairs[i].Value = &keys[i], &values[i]
		out[i] = &pairs[i]
	}
	return out
}

func without(l map[string]string, drop ...string) map[string]string {
	out := make(map[string]string, len(l))
	for k, v := range l {
		out[k] = v
	}
	for _, d := range drop {
		delete(out, d)
	}
	return out
}

// labelKey is a series' identity among its family's, without the dropped labels: its labels
// sorted by name, each name=value\xff. It is built in one allocation (besides the sorted
// names): it is asked for several times a series, for every series of every answer.
func labelKey(l map[string]string, drop ...string) string {
	var stack [32]string
	keys := stack[:0]
	size := 0
	for k, v := range l {
		if !slices.Contains(drop, k) {
			keys = append(keys, k)
			size += len(k) + len(v) + 2
		}
	}
	slices.Sort(keys)
	var b strings.Builder
	b.Grow(size)
	for _, k := range keys {
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(l[k])
		b.WriteByte('\xff')
	}
	return b.String()
}

// sortByLabels sorts a family's metrics by their labels (labelString), each metric's string
// built once.
func sortByLabels(ms []*dto.Metric) {
	keyed := make([]struct {
		key string
		m   *dto.Metric
	}, len(ms))
	for i, m := range ms {
		keyed[i].key, keyed[i].m = labelString(m), m
	}
	sort.Slice(keyed, func(i, j int) bool { return keyed[i].key < keyed[j].key })
	for i := range keyed {
		ms[i] = keyed[i].m
	}
}

func labelString(m *dto.Metric) string {
	var b strings.Builder
	for _, p := range m.Label {
		b.WriteString(p.GetName())
		b.WriteByte('=')
		b.WriteString(p.GetValue())
		b.WriteByte('\xff')
	}
	return b.String()
}
