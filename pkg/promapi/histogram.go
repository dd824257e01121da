package promapi

import (
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

// histogramJSON is a histogram in the API's JSON: numbers are strings, a bucket is
// [boundary_rule, "lower", "upper", "count"].
type histogramJSON struct {
	Count   string   `json:"count"`
	Sum     string   `json:"sum"`
	Buckets [][4]any `json:"buckets"`
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
		return Point{}, fmt.Errorf("decoding a histogram sample: %w", err)
	}
	h := &Histogram{Buckets: make([]HistogramBucket, 0, len(hj.Buckets))}
	var err error
	if h.Count, err = number("count", hj.Count); err != nil {
		return Point{}, err
	}
	if h.Sum, err = number("sum", hj.Sum); err != nil {
		return Point{}, err
	}
	for _, b := range hj.Buckets {
		rule, ok := b[0].(float64)
		lo, ok1 := b[1].(string)
		up, ok2 := b[2].(string)
		n, ok3 := b[3].(string)
		if !ok || !ok1 || !ok2 || !ok3 || rule < 0 || rule > 3 || rule != math.Trunc(rule) {
			return Point{}, fmt.Errorf("decoding a histogram bucket %v: not [boundary_rule, \"lower\", \"upper\", \"count\"]", b)
		}
		hb := HistogramBucket{Rule: int(rule)}
		if hb.Lower, err = number("bucket boundary", lo); err != nil {
			return Point{}, err
		}
		if hb.Upper, err = number("bucket boundary", up); err != nil {
			return Point{}, err
		}
		if hb.Count, err = number("bucket count", n); err != nil {
			return Point{}, err
		}
		if !(hb.Lower <= hb.Upper) {
			return Point{}, fmt.Errorf("decoding a histogram bucket %v: its lower boundary is above its upper one", b)
		}
		h.Buckets = append(h.Buckets, hb)
	}
	return Point{T: unixTime(ts), V: math.NaN(), H: h}, nil
}

// number decodes one of the API's numbers, given as a string.
func number(what, s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("decoding a histogram's %s %q: %w", what, s, err)
	}
	return v, nil
}
