package health

import (
	"math"
	"sort"

	dto "github.com/prometheus/client_model/go"
)

// Histogram is a classic cumulative histogram: bucket counts are cumulative and sorted by
// upper bound; the last bucket is +Inf when the source exposed it.
type Histogram struct {
	Buckets []Bucket
	Count   float64
	Sum     float64
}

// Bucket is one cumulative histogram bucket.
type Bucket struct {
	UpperBound float64
	Count      float64
}

// add merges the series h into the histogram, summing counts of equal upper bounds.
func (h *Histogram) add(m *dto.Histogram) {
	h.Count += float64(m.GetSampleCount())
	if m.SampleCountFloat != nil {
		h.Count += m.GetSampleCountFloat()
	}
	h.Sum += m.GetSampleSum()
	if h.Buckets == nil {
		h.Buckets = make([]Bucket, 0, len(m.GetBucket())+1) // and the +Inf bucket a series may leave out
	}
	hasInf := false
	for _, b := range m.GetBucket() {
		hasInf = hasInf || math.IsInf(b.GetUpperBound(), +1)
		c := float64(b.GetCumulativeCount())
		if b.CumulativeCountFloat != nil {
			c += b.GetCumulativeCountFloat()
		}
		h.addBucket(b.GetUpperBound(), c)
	}
	// A series without the +Inf bucket still has one: its sample count.
	if !hasInf {
		h.addBucket(math.Inf(+1), float64(m.GetSampleCount()))
	}
}

func (h *Histogram) addBucket(ub, count float64) {
	if n := len(h.Buckets); n == 0 || h.Buckets[n-1].UpperBound < ub {
		h.Buckets = append(h.Buckets, Bucket{UpperBound: ub, Count: count}) // a page lists them in order
		return
	}
	i := sort.Search(len(h.Buckets), func(i int) bool { return h.Buckets[i].UpperBound >= ub })
	if i < len(h.Buckets) && h.Buckets[i].UpperBound == ub {
		h.Buckets[i].Count += count
		return
	}
	h.Buckets = append(h.Buckets, Bucket{})
	copy(h.Buckets[i+1:], h.Buckets[i:])
	h.Buckets[i] = Bucket{UpperBound: ub, Count: count}
}

// Since returns the observations made between prev and h, bucket by bucket, the way PromQL's
// Increase() treats each bucket series: a bucket whose count went down was reset and its
// current count is the increase. A nil prev (the histogram is new) gives h itself; a nil h
// gives nil.
func (h *Histogram) Since(prev *Histogram) *Histogram {
	if h == nil {
		return nil
	}
	if prev == nil {
		c := *h
		c.Buckets = append([]Bucket(nil), h.Buckets...)
		return &c
	}
	d := &Histogram{Count: Increase(prev.Count, h.Count), Sum: Increase(prev.Sum, h.Sum)}
	if len(h.Buckets) == 0 {
		return d
	}
	// add keeps buckets sorted and distinct, and the two samples of a series mostly have the
	// same bounds: the bucket sought is then prev's bucket at the same index, or found by a
	// search. Other buckets are looked up in a map (the last of equal bounds counts).
	sorted := strictlyIncreasing(prev.Buckets)
	var before map[float64]float64
	if !sorted {
		before = make(map[float64]float64, len(prev.Buckets))
		for _, b := range prev.Buckets {
			before[b.UpperBound] = b.Count
		}
	}
	d.Buckets = make([]Bucket, len(h.Buckets))
	for i, b := range h.Buckets {
		var c float64 // 0 when prev has no such bucket
		if sorted {
			c = boundCount(prev.Buckets, i, b.UpperBound)
		} else {
			c = before[b.UpperBound]
		}
		d.Buckets[i] = Bucket{UpperBound: b.UpperBound, Count: Increase(c, b.Count)}
	}
	return d
}

// strictlyIncreasing reports whether the upper bounds of buckets increase (no NaN, no two
// equal).
func strictlyIncreasing(buckets []Bucket) bool {
	for i := 1; i < len(buckets); i++ {
		if !(buckets[i-1].UpperBound < buckets[i].UpperBound) {
			return false
		}
	}
	return true
}

// boundCount is the count of the bucket of sorted buckets with upper bound ub, 0 without one;
// buckets[i] is tried first.
func boundCount(buckets []Bucket, i int, ub float64) float64 {
	if i < len(buckets) && buckets[i].UpperBound == ub {
		return buckets[i].Count
	}
	j := sort.Search(len(buckets), func(j int) bool { return buckets[j].UpperBound >= ub })
	if j < len(buckets) && buckets[j].UpperBound == ub {
		return buckets[j].Count
	}
	return 0
}

// Quantile returns the q-quantile (0 <= q <= 1) of the observations in h, as PromQL's
// histogram_quantile computes it from classic buckets: linear interpolation inside the
// bucket holding the rank; the lowest bucket starts at 0 when its upper bound is positive
// (else its upper bound is returned); a rank in the +Inf bucket returns the highest finite
// upper bound; bucket counts that decrease are raised to keep them monotonic. It returns NaN
// when h is nil, has no +Inf bucket, fewer than two buckets, or no observations. It ignores
// what the sum proves: Estimate is the figure to show and judge; Quantile is what PromQL says.
func (h *Histogram) Quantile(q float64) float64 {
	if h == nil || math.IsNaN(q) {
		return math.NaN()
	}
	if q < 0 {
		return math.Inf(-1)
	}
	if q > 1 {
		return math.Inf(+1)
	}
	buckets := h.cumulative()
	if buckets == nil {
		return math.NaN()
	}
	rank := q * buckets[len(buckets)-1].Count
	b := rankBucket(buckets, rank)
	if b == len(buckets)-1 {
		return buckets[len(buckets)-2].UpperBound
	}
	if b == 0 && buckets[0].UpperBound <= 0 {
		return buckets[0].UpperBound
	}
	var start float64
	end, count := buckets[b].UpperBound, buckets[b].Count
	if b > 0 {
		start = buckets[b-1].UpperBound
		count -= buckets[b-1].Count
		rank -= buckets[b-1].Count
	}
	return start + (end-start)*(rank/count)
}

// cumulative is h's buckets sorted by upper bound with decreasing counts raised, or nil when
// no quantile can be read from them: no +Inf bucket, fewer than two buckets, no observations.
// It is h's own slice when that needs neither (as add leaves them, mostly): read it only.
func (h *Histogram) cumulative() []Bucket {
	buckets := h.Buckets
	if sorted := strictlyIncreasing(buckets); !sorted || !monotonic(buckets) {
		buckets = append([]Bucket(nil), buckets...)
		if !sorted {
			sort.Slice(buckets, func(i, j int) bool { return buckets[i].UpperBound < buckets[j].UpperBound })
		}
		ensureMonotonic(buckets)
	}
	if len(buckets) < 2 || !math.IsInf(buckets[len(buckets)-1].UpperBound, +1) {
		return nil
	}
	if observations := buckets[len(buckets)-1].Count; observations == 0 || math.IsNaN(observations) {
		return nil
	}
	return buckets
}

// rankBucket is the index of the bucket of cumulative buckets that holds rank: the first whose
// count reaches it, the +Inf bucket (the last) when no finite one does.
func rankBucket(buckets []Bucket, rank float64) int {
	return sort.Search(len(buckets)-1, func(i int) bool { return buckets[i].Count >= rank })
}

// monotonic reports whether no bucket count is lower than the one before it (nor NaN), so
// that ensureMonotonic would change nothing.
func monotonic(buckets []Bucket) bool {
	for i := 1; i < len(buckets); i++ {
		if !(buckets[i].Count >= buckets[i-1].Count) {
			return false
		}
	}
	return len(buckets) == 0 || !math.IsNaN(buckets[0].Count)
}

// ensureMonotonic raises any bucket count lower than the one before it, as PromQL does for
// buckets scraped at slightly different times.
func ensureMonotonic(buckets []Bucket) {
	max := math.Inf(-1)
	for i := range buckets {
		switch {
		case buckets[i].Count > max:
			max = buckets[i].Count
		case buckets[i].Count < max:
			buckets[i].Count = max
		}
	}
}

// Increase is the growth of a counter from prev to cur; a counter that went down was reset
// and cur is its increase since the reset (PromQL's rule). NaN stays NaN.
func Increase(prev, cur float64) float64 {
	if math.IsNaN(prev) {
		return cur
	}
	if cur < prev {
		return cur
	}
	return cur - prev
}

// Above is how many observations of h were surely above bound, and how many possibly: above
// the smallest bucket bound at or over bound, and above the largest bucket bound at or under
// it (all of them when no bound is). The two are equal when bound is a bucket's bound. Both
// are NaN when h is nil or has no +Inf bucket; decreasing bucket counts are raised first, as
// Quantile does.
func (h *Histogram) Above(bound float64) (surely, possibly float64) {
	if h == nil || len(h.Buckets) == 0 || math.IsNaN(bound) {
		return math.NaN(), math.NaN()
	}
	buckets := h.Buckets
	if !strictlyIncreasing(buckets) || !monotonic(buckets) {
		buckets = append([]Bucket(nil), buckets...)
		sort.Slice(buckets, func(i, j int) bool { return buckets[i].UpperBound < buckets[j].UpperBound })
		ensureMonotonic(buckets)
	}
	last := buckets[len(buckets)-1]
	if !math.IsInf(last.UpperBound, +1) {
		return math.NaN(), math.NaN()
	}
	total := last.Count
	possibly = total
	surely = 0
	for _, b := range buckets {
		if b.UpperBound <= bound {
			possibly = total - b.Count
		}
		if b.UpperBound >= bound {
			surely = total - b.Count
			break
		}
	}
	return surely, possibly
}
