package promsource

import dto "github.com/prometheus/client_model/go"

// scalarSlab holds the metrics of the gauges and counters of one sample, their values and the
// pointers to them, in a few allocations instead of three per series: a target's series are
// hundreds, a fleet's samples thousands. Each series gives at most one metric, so slices
// sized by the series never grow and the pointers handed out stay valid.
type scalarSlab struct {
	metrics  []dto.Metric
	counters []dto.Counter
	gauges   []dto.Gauge
	values   []float64
}

// newScalarSlab makes room for n series' metrics; counters and gauges are allocated as they
// come, a chunk at a time.
func newScalarSlab(n int) *scalarSlab {
	return &scalarSlab{metrics: make([]dto.Metric, 0, n), values: make([]float64, 0, n)}
}

// scalarChunk is how many counters or gauges are allocated together.
const scalarChunk = 64

// scalar is the metric of a counter (or a gauge) of value v with labels.
func (b *scalarSlab) scalar(labels []*dto.LabelPair, v float64, counter bool) *dto.Metric {
	i := len(b.values)
	b.values = append(b.values, v)
	b.metrics = b.metrics[:i+1]
	m := &b.metrics[i]
	m.Label = labels
	if counter {
		if len(b.counters) == cap(b.counters) {
			b.counters = make([]dto.Counter, 0, scalarChunk)
		}
		b.counters = b.counters[:len(b.counters)+1]
		c := &b.counters[len(b.counters)-1]
		c.Value = &b.values[i]
		m.Counter = c
	} else {
		if len(b.gauges) == cap(b.gauges) {
			b.gauges = make([]dto.Gauge, 0, scalarChunk)
		}
		b.gauges = b.gauges[:len(b.gauges)+1]
		g := &b.gauges[len(b.gauges)-1]
		g.Value = &b.values[i]
		m.Gauge = g
	}
	return m
}
