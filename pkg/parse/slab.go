package parse

import dto "github.com/prometheus/client_model/go"

// slabs hands out the parts of the parsed families from chunks, a few allocations per page
// rather than several per sample line. A chunk lives as long as any of its parts: all parts
// of one page are read together and let go together.
type slabs struct {
	metrics    slab[dto.Metric]
	pairs      slab[dto.LabelPair]
	counters   slab[dto.Counter]
	gauges     slab[dto.Gauge]
	histograms slab[dto.Histogram]
	buckets    slab[dto.Bucket]
	floats     slab[float64]
	uints      slab[uint64]
}

// float returns a pointer to a copy of v, as proto.Float64 does.
func (s *slabs) float(v float64) *float64 {
	f := s.floats.next()
	*f = v
	return f
}

// uint returns a pointer to a copy of v, as proto.Uint64 does.
func (s *slabs) uint(v uint64) *uint64 {
	u := s.uints.next()
	*u = v
	return u
}

// slab hands out zero values of T from chunks that grow from 8 to 256 values.
type slab[T any] struct {
	free []T
	size int
}

func (s *slab[T]) next() *T {
	if len(s.free) == 0 {
		s.size = min(max(2*s.size, 8), 256)
		s.free = make([]T, s.size)
	}
	v := &s.free[0]
	s.free = s.free[1:]
	return v
}
