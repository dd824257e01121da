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
		c := nextOf(&b.counters)
		c.Value = &b.values[i]
		m.Counter = c
	} else {
		g := nextOf(&b.gauges)
		g.Value = &b.values[i]
		m.Gauge = g
	}
	return m
}

// nextOf is the next element of a chunk, allocating a new chunk of scalarChunk when it is full
// (the elements handed out before stay where they are).
func nextOf[T any](chunk *[]T) *T {
	if len(*chunk) == cap(*chunk) {
		*chunk = make([]T, 0, scalarChunk)
	}
	*chunk = (*chunk)[:len(*chunk)+1]
	return &(*chunk)[len(*chunk)-1]
}
