package health

import (
	"sort"
	"strings"

	dto "github.com/prometheus/client_model/go"
)

// Mistyped is a family the model reads whose TYPE keeps its values out of reach: a gauge or
// counter declared as a histogram or summary (the parser keeps no value for it), or a latency
// histogram declared as anything but a histogram (no buckets, so no quantiles). The figures
// drawn from it show as unknown; Mistyped says why.
type Mistyped struct {
	Family string `json:"family"`
	// Declared is the page's TYPE, lower case (e.g. "summary"); Read is what the model reads.
	Declared string `json:"declared"`
	Read     string `json:"read"`
}

// histogramFamilies are the families the model reads as histograms (buckets for quantiles).
var histogramFamilies = map[string]bool{
	wqQueueDur: true, wqWorkDur: true, restRateLimiter: true, informerLatency: true,
	apfWait: true, crWebhookLatency: true, admissionLatency: true, apiRequestDuration: true, restDuration: true,
}

// MistypedFamilies lists the families of a page that the model reads but cannot read with the
// TYPE the page gives them, by family name. A counter declared as a gauge (or untyped) is read
// as it is and is not listed, and so is a histogram without TYPE whose series have a
// histogram's shape (untypedHistogram); one whose untyped series do not is listed as untyped.
func MistypedFamilies(fams map[string]*dto.MetricFamily) []Mistyped {
	var out []Mistyped
	for name, f := range fams {
		if !wanted[name] {
			continue
		}
		t := f.GetType()
		switch {
		case histogramFamilies[name]:
			if t != dto.MetricType_HISTOGRAM && t != dto.MetricType_GAUGE_HISTOGRAM {
				out = append(out, Mistyped{Family: name, Declared: typeName(t), Read: "histogram"})
			}
		case t == dto.MetricType_HISTOGRAM || t == dto.MetricType_GAUGE_HISTOGRAM || t == dto.MetricType_SUMMARY:
			out = append(out, Mistyped{Family: name, Declared: typeName(t), Read: "gauge, counter or untyped"})
		}
	}
	for name := range histogramFamilies {
		if fams[name] != nil {
			continue
		}
		if _, present, ok := untypedHistogram(fams, name); present && !ok {
			// Untyped parts that are not a histogram's shape: no buckets to read.
			out = append(out, Mistyped{Family: name, Declared: typeName(dto.MetricType_UNTYPED), Read: "histogram"})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Family < out[j].Family })
	return out
}

// typeName is the exposition format's spelling of a metric type ("gauge_histogram" has none
// in the text format; it only comes from protobuf pages).
func typeName(t dto.MetricType) string {
	return strings.ToLower(t.String())
}
