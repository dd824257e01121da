package promsource

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// Histogram is a native histogram's sample, as the API gives it: the count and sum of the
// observations and its populated buckets, each with its own (not cumulative) count.
type Histogram struct {
	Count, Sum float64
	Buckets    []HistogramBucket
}

// HistogramBucket is one bucket of a native histogram: the observations between Lower and
// Upper. Rule says which boundaries are inside: 0 the upper only (the positive buckets,
// (Lower, Upper]), 1 the lower only (the negative ones, [Lower, Upper)), 2 neither, 3 both
// (the zero bucket, [-threshold, threshold]).
type HistogramBucket struct {
	Rule         int
	Lower, Upper float64
	Count        float64
}

// MaxNativeBuckets is the most buckets one native histogram sample may have. The finest
// resolution Prometheus keeps (schema 8, 256 buckets per power of two) spans nanoseconds to
// days (2^46) in about 11,800 buckets, and client libraries keep far fewer (160 by default in
// OpenTelemetry's, client_golang's limit is set per histogram, typically around 100): more is
// an answer no histogram gives, whose reading would only cost time and memory.
const MaxNativeBuckets = 16384

// TooManyBucketsError is a native histogram sample with more buckets than MaxNativeBuckets.
type TooManyBucketsError struct {
	Limit int
}

func (e *TooManyBucketsError) Error() string {
	return fmt.Sprintf("a native histogram sample holds more than %d buckets, the most read: lower its resolution (the scrape config's native_histogram_bucket_limit, or the client's bucket limit), or leave out its target with -n or --clusters", e.Limit)
}

// histogramJSON is a histogram in the API's JSON: numbers are strings, a bucket is
// [boundary_rule, "lower", "upper", "count"].
type histogramJSON struct {
	Count   string     `json:"count"`
	Sum     string     `json:"sum"`
	Buckets bucketList `json:"buckets"`
}

// bucketList is a histogram's buckets, read one by one and no more than MaxNativeBuckets.
type bucketList []HistogramBucket

func (l *bucketList) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := expectDelim(dec, '['); err != nil {
		return errors.New("the buckets are not a list")
	}
	for dec.More() {
		if len(*l) >= MaxNativeBuckets {
			return &TooManyBucketsError{Limit: MaxNativeBuckets}
		}
		var raw [4]any
		if err := dec.Decode(&raw); err != nil {
			return fmt.Errorf("a bucket is not [boundary_rule, \"lower\", \"upper\", \"count\"]: %w", err)
		}
		hb, err := bucket(raw)
		if err != nil {
			return err
		}
		*l = append(*l, hb)
	}
	return nil
}

// histogramPoint decodes [unixSeconds, {"count": .., "sum": .., "buckets": [..]}]: a point whose
// V is NaN and H the histogram.
func histogramPoint(raw json.RawMessage) (Point, error) {
	var pair [2]json.RawMessage
	if err := json.Unmarshal(raw, &pair); err != nil || pair[0] == nil || pair[1] == nil {
		return Point{}, errors.New("decoding a histogram sample: not [time, {count, sum, buckets}]")
	}
	var ts float64
	if err := json.Unmarshal(pair[0], &ts); err != nil {
		return Point{}, fmt.Errorf("decoding a histogram sample's time: %w", err)
	}
	var hj histogramJSON
	if err := json.Unmarshal(pair[1], &hj); err != nil {
		var tooMany *TooManyBucketsError
		if errors.As(err, &tooMany) {
			return Point{}, tooMany
		}
		return Point{}, fmt.Errorf("decoding a histogram sample: %w", err)
	}
	h := &Histogram{Buckets: hj.Buckets}
	var err error
	if h.Count, err = number("count", hj.Count); err != nil {
		return Point{}, err
	}
	if h.Sum, err = number("sum", hj.Sum); err != nil {
		return Point{}, err
	}
	return Point{T: unixTime(ts), V: math.NaN(), H: h}, nil
}

// bucket reads one bucket, [boundary_rule, "lower", "upper", "count"].
func bucket(b [4]any) (HistogramBucket, error) {
	rule, ok := b[0].(float64)
	lo, ok1 := b[1].(string)
	up, ok2 := b[2].(string)
	n, ok3 := b[3].(string)
	if !ok || !ok1 || !ok2 || !ok3 || rule < 0 || rule > 3 || rule != math.Trunc(rule) {
		return HistogramBucket{}, fmt.Errorf("decoding a histogram bucket %v: not [boundary_rule, \"lower\", \"upper\", \"count\"]", b)
	}
	hb := HistogramBucket{Rule: int(rule)}
	var err error
	if hb.Lower, err = number("bucket boundary", lo); err != nil {
		return HistogramBucket{}, err
	}
	if hb.Upper, err = number("bucket boundary", up); err != nil {
		return HistogramBucket{}, err
	}
	if hb.Count, err = number("bucket count", n); err != nil {
		return HistogramBucket{}, err
	}
	if !(hb.Lower <= hb.Upper) {
		return HistogramBucket{}, fmt.Errorf("decoding a histogram bucket %v: its lower boundary is above its upper one", b)
	}
	return hb, nil
}

// number decodes one of the API's numbers, given as a string.
func number(what, s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("decoding a histogram's %s %q: %w", what, s, err)
	}
	return v, nil
}
