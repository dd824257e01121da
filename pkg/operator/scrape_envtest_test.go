//go:build envtest

package operator_test

import (
	"crypto/tls"
	"fmt"
	"io"
	"math"
	"net/http"
	"sort"
	"strings"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// families is one parsed /metrics page.
type families map[string]*dto.MetricFamily

// scrape GETs url (HTTPS without verification, as the self-signed certificate needs) with an
// optional bearer token, returns the status code and, on 200, the parsed page.
func scrape(url, token string) (int, families, error) {
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}} //nolint:gosec // self-signed test cert
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return 0, nil, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return resp.StatusCode, nil, fmt.Errorf("GET %s: %s: %s", url, resp.Status, strings.TrimSpace(string(b)))
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	return resp.StatusCode, families(fams), err
}

func matches(m *dto.Metric, labels map[string]string) bool {
	for k, v := range labels {
		found := false
		for _, lp := range m.GetLabel() {
			if lp.GetName() == k && lp.GetValue() == v {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// sum adds the values of the counter or gauge series of name that carry labels.
func (f families) sum(name string, labels map[string]string) float64 {
	var s float64
	for _, m := range f[name].GetMetric() {
		if !matches(m, labels) {
			continue
		}
		switch {
		case m.Counter != nil:
			s += m.Counter.GetValue()
		case m.Gauge != nil:
			s += m.Gauge.GetValue()
		}
	}
	return s
}

// histogram is one histogram summed over matching series.
type histogram struct {
	count, sum float64
	buckets    map[float64]float64 // upper bound -> cumulative count
}

func (f families) histogram(name string, labels map[string]string) histogram {
	h := histogram{buckets: map[float64]float64{}}
	for _, m := range f[name].GetMetric() {
		if m.Histogram == nil || !matches(m, labels) {
			continue
		}
		h.count += float64(m.Histogram.GetSampleCount())
		h.sum += m.Histogram.GetSampleSum()
		for _, b := range m.Histogram.GetBucket() {
			h.buckets[b.GetUpperBound()] += float64(b.GetCumulativeCount())
		}
	}
	return h
}

// minus is the histogram of the window between an earlier scrape and this one.
func (h histogram) minus(earlier histogram) histogram {
	d := histogram{count: h.count - earlier.count, sum: h.sum - earlier.sum, buckets: map[float64]float64{}}
	for ub, c := range h.buckets {
		d.buckets[ub] = c - earlier.buckets[ub]
	}
	return d
}

func (h histogram) mean() float64 {
	if h.count == 0 {
		return 0
	}
	return h.sum / h.count
}

// quantile interpolates linearly within buckets, as PromQL's histogram_quantile.
func (h histogram) quantile(q float64) float64 {
	if h.count == 0 {
		return math.NaN()
	}
	ubs := make([]float64, 0, len(h.buckets))
	for ub := range h.buckets {
		ubs = append(ubs, ub)
	}
	sort.Float64s(ubs)
	rank := q * h.count
	prevUB, prevCount := 0.0, 0.0
	for _, ub := range ubs {
		c := h.buckets[ub]
		if c >= rank {
			if math.IsInf(ub, 1) {
				return prevUB
			}
			if c == prevCount {
				return ub
			}
			return prevUB + (ub-prevUB)*(rank-prevCount)/(c-prevCount)
		}
		prevUB, prevCount = ub, c
	}
	return prevUB
}

// hasLabels reports whether some series of name carries every label name in want.
func (f families) hasLabels(name string, want ...string) bool {
	for _, m := range f[name].GetMetric() {
		have := map[string]bool{}
		for _, lp := range m.GetLabel() {
			have[lp.GetName()] = true
		}
		ok := true
		for _, w := range want {
			ok = ok && have[w]
		}
		if ok {
			return true
		}
	}
	return false
}
