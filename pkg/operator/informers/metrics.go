package informers

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	toolscache "k8s.io/client-go/tools/cache"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"
)

// The same names, labels and buckets as k8s.io/component-base/metrics/prometheus/clientgo/fifo,
// which kube-controller-manager registers; controller-runtime registers none of them.
var (
	labels = []string{"name", "group", "version", "resource"}

	queuedItems = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "informer_queued_items",
		Help: "Number of items currently queued in the FIFO.",
	}, labels)
	processingLatency = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "informer_processing_latency_seconds",
		Help:    "Time taken to process events after popping from the queue.",
		Buckets: []float64{0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10},
	}, labels)
	storeResourceVersion = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "informer_store_resource_version",
		Help: "The 15 least significant digits of the resource version of the store.",
	}, labels)

	registerOnce sync.Once
)

// register adds the informer families to controller-runtime's registry once per process.
func register() {
	registerOnce.Do(func() {
		ctrlmetrics.Registry.MustRegister(queuedItems, processingLatency, storeResourceVersion)
	})
}

// provider implements client-go's cache.InformerMetricsProvider on the families above.
type provider struct{}

func labelValues(id toolscache.InformerNameAndResource) []string {
	gvr := id.GroupVersionResource()
	return []string{id.Name(), gvr.Group, gvr.Version, gvr.Resource}
}

func (provider) NewQueuedItemMetric(id toolscache.InformerNameAndResource) toolscache.GaugeMetric {
	return reservedGauge{id: id, g: queuedItems.WithLabelValues(labelValues(id)...)}
}

func (provider) NewProcessingLatencyMetric(id toolscache.InformerNameAndResource) toolscache.HistogramMetric {
	return reservedHistogram{id: id, h: processingLatency.WithLabelValues(labelValues(id)...)}
}

func (provider) NewStoreResourceVersionMetric(id toolscache.InformerNameAndResource) toolscache.GaugeMetric {
	return reservedGauge{id: id, g: storeResourceVersion.WithLabelValues(labelValues(id)...)}
}

// reservedGauge updates only while the informer's name is reserved (not released at shutdown).
type reservedGauge struct {
	id toolscache.InformerNameAndResource
	g  prometheus.Gauge
}

func (r reservedGauge) Set(v float64) {
	if r.id.Reserved() {
		r.g.Set(v)
	}
}

type reservedHistogram struct {
	id toolscache.InformerNameAndResource
	h  prometheus.Observer
}

func (r reservedHistogram) Observe(v float64) {
	if r.id.Reserved() {
		r.h.Observe(v)
	}
}
