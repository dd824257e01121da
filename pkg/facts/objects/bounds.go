package objects

import (
	"slices"
	"sort"
	"time"
)

// bounds are the upper bounds, in seconds and ascending, of the buckets the watch counts the
// latencies of the spec changes and the times to Ready in.
type bounds []float64

// specBounds are the default bounds, log-spaced from 50ms to 30m.
var specBounds = bounds{0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800}

// boundsFor are the default bounds with the spec-latency objective among them, so that the
// counts say exactly how many changes were over it whatever it is (3s would otherwise lie
// between 2s and 5s, and every change between them be only possibly over).
func boundsFor(objective time.Duration) bounds {
	t := objective.Seconds()
	if !(t > 0) || slices.Contains(specBounds, t) {
		return specBounds
	}
	b := append(slices.Clone(specBounds), t)
	slices.Sort(b)
	return b
}

// index is the bucket v falls in: the first bound v fits under (len(b) above all).
func (b bounds) index(v float64) int {
	return sort.SearchFloat64s(b, v)
}

// cumulative turns per-bucket counts into cumulative Buckets; nil when there are none.
func (b bounds) cumulative(counts []int) []Bucket {
	total := 0
	for _, c := range counts {
		total += c
	}
	if total == 0 {
		return nil
	}
	out := make([]Bucket, len(b))
	n := 0
	for i, le := range b {
		n += counts[i]
		out[i] = Bucket{LE: le, Count: n}
	}
	return out
}
