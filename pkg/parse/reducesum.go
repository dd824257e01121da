package parse

import (
	"math"
	"slices"
	"sort"
	"strings"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/model"
	"google.golang.org/protobuf/proto"
)

// family returns the reduced family: for each key (the kept labels' values), one series that
// sums the key's series as pkg/model/health's Histogram.add does, in the order of the page. When
// that sum's buckets would not read back as they are (bounds not strictly increasing: NaN,
// or out of order), the key's series are given one by one instead, with the kept labels only,
// and their reader sums them itself.
func (r *reducer) result() *dto.MetricFamily {
	mf := &dto.MetricFamily{Name: proto.String(r.family), Type: dto.MetricType_HISTOGRAM.Enum()}
	// The records of each key, in the order of the page: byKey[start[k]:start[k+1]].
	start := make([]int32, len(r.keys)+1)
	for i := range r.records {
		start[r.records[i].key+1]++
	}
	for k := range r.keys {
		start[k+1] += start[k]
	}
	byKey, next := make([]int32, len(r.records)), slices.Clone(start)
	for i := range r.records {
		k := r.records[i].key
		byKey[next[k]] = int32(i)
		next[k]++
	}
	var alloc slabs
	interned := map[string]*string{}
	for k := range r.keys {
		recs := byKey[start[k]:start[k+1]]
		labels := r.keyLabels(k, &alloc, interned)
		for i := range recs {
			normalize(&r.records[recs[i]])
		}
		if h, ok := r.sum(recs, &alloc); ok {
			m := alloc.metrics.next()
			m.Label, m.Histogram = labels, h
			mf.Metric = append(mf.Metric, m)
			continue
		}
		for _, i := range recs {
			m := alloc.metrics.next()
			m.Label, m.Histogram = labels, r.records[i].histogram(&alloc)
			mf.Metric = append(mf.Metric, m)
		}
	}
	return mf
}

// keyLabels are the kept labels of key k that have a value; strings holds the names and
// values given so far, which the series share.
func (r *reducer) keyLabels(k int, alloc *slabs, interned map[string]*string) []*dto.LabelPair {
	intern := func(s string) *string {
		p := interned[s]
		if p == nil {
			p = new(string)
			*p = s
			interned[s] = p
		}
		return p
	}
	var out []*dto.LabelPair
	rest := r.keys[k]
	for _, name := range r.labels {
		value := rest
		if i := strings.IndexByte(rest, model.SeparatorByte); i >= 0 {
			value, rest = rest[:i], rest[i+1:]
		}
		if value == "" {
			continue
		}
		if out == nil {
			out = make([]*dto.LabelPair, 0, len(r.labels))
		}
		p := alloc.pairs.next()
		p.Name, p.Value = intern(name), intern(value)
		out = append(out, p)
	}
	return out
}

// normalize is normalizeHistogram on a record.
func normalize(rec *record) {
	anyFloats := rec.scfSet && rec.scf != 0
	for _, b := range rec.buckets {
		if anyFloats {
			break
		}
		anyFloats = b.isFloat && b.count != 0
	}
	if !anyFloats {
		return
	}
	if !(rec.scfSet && rec.scf != 0) {
		rec.scf, rec.scfSet = float64(rec.getSC()), true
		rec.sc, rec.scSet = 0, false
	}
	for i := range rec.buckets {
		if b := &rec.buckets[i]; !(b.isFloat && b.count != 0) {
			b.isFloat = true // the count is float64 of the integer already
		}
	}
}

func (rec *record) getSC() uint64 {
	if rec.scSet {
		return rec.sc
	}
	return 0
}

// sumBucket is a bucket of a sum, as pkg/model/health's Bucket.
type sumBucket struct{ ub, count float64 }

// sum adds the records recs the way pkg/model/health's Histogram.add adds series, and returns the
// histogram that reads back as that sum; ok is false when none does (see result).
func (r *reducer) sum(recs []int32, alloc *slabs) (h *dto.Histogram, ok bool) {
	var count, total float64
	buckets := r.sumScratch[:0]
	defer func() { r.sumScratch = buckets[:0] }()
	for _, i := range recs {
		rec := &r.records[i]
		count += float64(rec.getSC())
		if rec.scfSet {
			count += rec.scf
		}
		total += rec.sum
		hasInf := false
		for _, b := range rec.buckets {
			hasInf = hasInf || math.IsInf(b.ub, +1)
			c := b.count
			if b.isFloat {
				c = 0 + b.count
			}
			buckets = addSumBucket(buckets, b.ub, c)
		}
		if !hasInf {
			buckets = addSumBucket(buckets, math.Inf(+1), float64(rec.getSC()))
		}
	}
	for i := 1; i < len(buckets); i++ {
		if !(buckets[i-1].ub < buckets[i].ub) {
			return nil, false
		}
	}
	h = alloc.histograms.next()
	h.SampleSum = alloc.float(total)
	if u := uint64(count); count == float64(u) {
		h.SampleCount = alloc.uint(u)
	} else {
		h.SampleCountFloat = alloc.float(count)
	}
	h.Bucket = make([]*dto.Bucket, len(buckets))
	for i, b := range buckets {
		db := alloc.buckets.next()
		db.UpperBound = alloc.float(b.ub)
		if u := uint64(b.count); b.count == float64(u) {
			db.CumulativeCount = alloc.uint(u)
		} else {
			db.CumulativeCountFloat = alloc.float(b.count)
		}
		h.Bucket[i] = db
	}
	return h, true
}

// addSumBucket is pkg/model/health's Histogram.addBucket.
func addSumBucket(buckets []sumBucket, ub, count float64) []sumBucket {
	if n := len(buckets); n == 0 || buckets[n-1].ub < ub {
		return append(buckets, sumBucket{ub, count})
	}
	i := sort.Search(len(buckets), func(i int) bool { return buckets[i].ub >= ub })
	if i < len(buckets) && buckets[i].ub == ub {
		buckets[i].count += count
		return buckets
	}
	buckets = append(buckets, sumBucket{})
	copy(buckets[i+1:], buckets[i:])
	buckets[i] = sumBucket{ub, count}
	return buckets
}

// histogram is the record as the parser gives its series (normalized).
func (rec *record) histogram(alloc *slabs) *dto.Histogram {
	h := alloc.histograms.next()
	h.SampleSum = alloc.float(rec.sum)
	if rec.scSet {
		h.SampleCount = alloc.uint(rec.sc)
	}
	if rec.scfSet {
		h.SampleCountFloat = alloc.float(rec.scf)
	}
	h.Bucket = make([]*dto.Bucket, len(rec.buckets))
	for i, b := range rec.buckets {
		db := alloc.buckets.next()
		db.UpperBound = alloc.float(b.ub)
		if b.isFloat {
			db.CumulativeCountFloat = alloc.float(b.count)
		} else {
			db.CumulativeCount = alloc.uint(uint64(b.count))
		}
		h.Bucket[i] = db
	}
	return h
}
