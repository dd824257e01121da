// Package cachesync measures how far a controller's informer caches lag the API server, by the
// methods SPEC names, in this order: (1) resource versions, comparing each named informer's
// store (informer_store_resource_version, Kubernetes >= 1.36) with the API server's watch cache
// (apiserver_watch_cache_resource_version), plus the informer's queued events and handler
// latency; (2) generations: objects whose status.observedGeneration trails metadata.generation;
// (3) any metric whose name contains cache_sync_lag, shown as it is.
package cachesync

import (
	"fmt"
	"math"
	"sort"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/model/health"
)

// Method names how a lag figure was obtained.
type Method string

const (
	MethodResourceVersion Method = "resource-version" // store RV vs the API server's watch cache
	MethodInformerMetrics Method = "informer-metrics" // queued items and handler latency only
	MethodGeneration      Method = "generation"       // observedGeneration vs generation
	MethodMetric          Method = "cache_sync_lag"   // a metric of that name, as exposed
)

// Informer is the lag of one named informer of one target.
type Informer struct {
	Target   string `json:"target"`
	Name     string `json:"name"`
	Group    string `json:"group"`
	Version  string `json:"version"`
	Resource string `json:"resource"`
	Method   Method `json:"method"`
	// QueuedItems are events waiting for the handlers; LatencyP99Seconds the handlers' p99
	// over the window (or since start), bounded by the sum; LatencyP99AtLeast says it is only
	// known to be that or more (above the highest finite bucket).
	QueuedItems       float64 `json:"queuedItems"`
	LatencyP99Seconds float64 `json:"latencyP99Seconds"`
	LatencyP99AtLeast bool    `json:"latencyP99AtLeast,omitempty"`
	// StoreResourceVersion and APIServerResourceVersion are the 15 low digits both expose.
	StoreResourceVersion     float64 `json:"storeResourceVersion"`
	APIServerResourceVersion float64 `json:"apiServerResourceVersion"`
	// VersionsBehind is APIServerResourceVersion - StoreResourceVersion (NaN when unknown).
	VersionsBehind float64 `json:"versionsBehind"`
	// BehindAPIServer: at the second sample the store had not reached the version the API
	// server's watch cache had at the first, so it lags by more than the window.
	BehindAPIServer bool `json:"behindAPIServer"`
}

// Label is "name/resource.group".
func (i Informer) Label() string {
	r := i.Resource
	if i.Group != "" {
		r += "." + i.Group
	}
	return i.Name + "/" + r
}

// Informers measures every named informer of a target against the API server's snapshots
// (apiPrev, apiCur; nil when the API server was not read).
func Informers(target string, prev, cur, apiPrev, apiCur *health.Snapshot) []Informer {
	if cur == nil || len(cur.Informers) == 0 {
		return nil
	}
	out := make([]Informer, 0, len(cur.Informers))
	labels := make([]string, 0, len(cur.Informers)) // out's, to sort by
	for key, inf := range cur.Informers {
		i := Informer{Target: target, Name: key.Name, Group: key.Group, Version: key.Version, Resource: key.Resource,
			Method: MethodInformerMetrics, QueuedItems: inf.QueuedItems, StoreResourceVersion: inf.ResourceVersion,
			APIServerResourceVersion: math.NaN(), VersionsBehind: math.NaN()}
		var before *health.Histogram
		if prev != nil && prev.Informers[key] != nil {
			before = prev.Informers[key].ProcessingLatency
		}
		p99 := inf.ProcessingLatency.Since(before).Estimate(0.99)
		i.LatencyP99Seconds, i.LatencyP99AtLeast = p99.Value, p99.AtLeast
		gr := health.GroupResource{Group: key.Group, Resource: key.Resource}
		if apiCur != nil {
			if rv, ok := apiCur.WatchCache[gr]; ok && !math.IsNaN(inf.ResourceVersion) {
				i.Method = MethodResourceVersion
				i.APIServerResourceVersion = rv
				i.VersionsBehind = math.Max(0, rv-inf.ResourceVersion)
				if apiPrev != nil {
					if first, ok := apiPrev.WatchCache[gr]; ok {
						i.BehindAPIServer = inf.ResourceVersion < first
					}
				}
			}
		}
		out = append(out, i)
		labels = append(labels, i.Label())
	}
	sort.Sort(byLabel{out, labels})
	return out
}

// byLabel sorts informers by their labels, each made once.
type byLabel struct {
	informers []Informer
	labels    []string
}

func (s byLabel) Len() int           { return len(s.labels) }
func (s byLabel) Less(i, j int) bool { return s.labels[i] < s.labels[j] }
func (s byLabel) Swap(i, j int) {
	s.informers[i], s.informers[j] = s.informers[j], s.informers[i]
	s.labels[i], s.labels[j] = s.labels[j], s.labels[i]
}

// Metric is one series of a family whose name contains cache_sync_lag.
type Metric struct {
	Target string  `json:"target"`
	Series string  `json:"series"`
	Value  float64 `json:"value"`
}

// Metrics lists the cache_sync_lag series of a snapshot as they are.
func Metrics(target string, cur *health.Snapshot) []Metric {
	if cur == nil {
		return nil
	}
	var out []Metric
	for _, f := range cur.CacheSyncLag {
		for _, m := range f.GetMetric() {
			series := f.GetName()
			if len(m.GetLabel()) > 0 {
				series += "{"
				for i, l := range m.GetLabel() {
					if i > 0 {
						series += ","
					}
					series += fmt.Sprintf("%s=%q", l.GetName(), l.GetValue())
				}
				series += "}"
			}
			v := m.GetGauge().GetValue() + m.GetCounter().GetValue() + m.GetUntyped().GetValue()
			if h := m.GetHistogram(); h != nil && h.GetSampleCount() > 0 {
				v = h.GetSampleSum() / float64(h.GetSampleCount())
				series += " (mean)"
			}
			out = append(out, Metric{Target: target, Series: series, Value: v})
		}
	}
	return out
}
