package promapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"sort"
	"strconv"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
)

// Response is a query's answer: its series (one point each for an instant vector, the raw
// samples of the range for a range vector) and the server's warnings.
type Response struct {
	Series   []Series
	Warnings []string
}

// Series is one labelled series of an answer.
type Series struct {
	Labels map[string]string
	Points []Point
}

// Point is one value at one time: a float V, or a native histogram H (then V is NaN).
type Point struct {
	T time.Time
	V float64
	H *Histogram
}

// APIError is an error answer of the API: `{"status":"error","errorType":..,"error":..}`.
type APIError struct {
	// Code is the HTTP status.
	Code      int
	ErrorType string
	Message   string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("answered %d %s: %s: %s", e.Code, http.StatusText(e.Code), e.ErrorType, e.Message)
}

// TooManySeriesError is an answer with more series than the limit.
type TooManySeriesError struct {
	Series, Limit int
}

func (e *TooManySeriesError) Error() string {
	return fmt.Sprintf("an answer holds %d series, over the limit of %d (--prometheus-max-series): narrow it with -n or --clusters, or raise the limit", e.Series, e.Limit)
}

// TooLargeError is an answer larger than the cap.
type TooLargeError struct {
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("an answer is larger than %d bytes (--max-body-bytes): narrow it with -n or --clusters, or raise the limit", e.Limit)
}

type envelope struct {
	Status    string          `json:"status"`
	ErrorType string          `json:"errorType"`
	Error     string          `json:"error"`
	Warnings  []string        `json:"warnings"`
	Data      json.RawMessage `json:"data"`
	// IsPartial is VictoriaMetrics' word for an answer some storage nodes did not contribute to
	// (its cluster version, without -search.denyPartialResponse).
	IsPartial bool `json:"isPartial"`
	// Kind and Message are those of a Kubernetes Status, the API server's answer when the
	// service proxy fails (no such service, no endpoints, forbidden).
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

type data struct {
	ResultType string `json:"resultType"`
	Result     []struct {
		Metric     map[string]string `json:"metric"`
		Value      json.RawMessage   `json:"value"`
		Values     []json.RawMessage `json:"values"`
		Histogram  json.RawMessage   `json:"histogram"`
		Histograms []json.RawMessage `json:"histograms"`
	} `json:"result"`
}

// decode reads an answer of at most maxBytes and maxSeries series; n is the bytes read.
func decode(resp *http.Response, maxBytes int64, maxSeries int) (*Response, int64, error) {
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBytes+1))
	n := int64(len(body))
	if err != nil {
		return nil, n, fmt.Errorf("reading the answer: %w", err)
	}
	if n > maxBytes {
		return nil, n, &TooLargeError{Limit: maxBytes}
	}
	var env envelope
	if err := json.Unmarshal(body, &env); err != nil || env.Status == "" {
		return nil, n, fmt.Errorf("answered %d %s with a body that is not the Prometheus API's (%s): is the URL the API's base (the part before /api/v1)?",
			resp.StatusCode, http.StatusText(resp.StatusCode), firstBytes(body, resp.Header.Get("Content-Type")))
	}
	if env.Kind == "Status" && env.Status != "success" {
		return nil, n, fmt.Errorf("the API server answered %d %s: %s", resp.StatusCode, http.StatusText(resp.StatusCode), redact.ExcerptString(env.Message))
	}
	if env.Status != "success" || resp.StatusCode/100 != 2 {
		// The server's words are quoted, not trusted: it may echo the request's credentials.
		return nil, n, &APIError{Code: resp.StatusCode, ErrorType: redact.ExcerptString(env.ErrorType), Message: redact.ExcerptString(env.Error)}
	}
	var d data
	if err := json.Unmarshal(env.Data, &d); err != nil {
		return nil, n, fmt.Errorf("decoding the answer: %w", err)
	}
	if len(d.Result) > maxSeries {
		return nil, n, &TooManySeriesError{Series: len(d.Result), Limit: maxSeries}
	}
	out := &Response{Warnings: env.Warnings, Series: make([]Series, 0, len(d.Result))}
	if env.IsPartial {
		out.Warnings = append(out.Warnings, "the answer is partial (isPartial: some storage nodes did not answer): series may be missing")
	}
	for _, r := range d.Result {
		s := Series{Labels: r.Metric}
		switch d.ResultType {
		case "vector":
			decodePoint := point
			raw := r.Value
			if r.Value == nil && r.Histogram != nil {
				decodePoint, raw = histogramPoint, r.Histogram
			}
			p, err := decodePoint(raw)
			if err != nil {
				return nil, n, err
			}
			s.Points = []Point{p}
		case "matrix":
			for _, v := range r.Values {
				p, err := point(v)
				if err != nil {
					return nil, n, err
				}
				s.Points = append(s.Points, p)
			}
			for _, v := range r.Histograms {
				p, err := histogramPoint(v)
				if err != nil {
					return nil, n, err
				}
				s.Points = append(s.Points, p)
			}
			// A series that changed from floats to histograms (or back) has both: in time order.
			sort.SliceStable(s.Points, func(i, j int) bool { return s.Points[i].T.Before(s.Points[j].T) })
		default:
			return nil, n, fmt.Errorf("the answer is a %s, not a vector or matrix", d.ResultType)
		}
		out.Series = append(out.Series, s)
	}
	return out, n, nil
}

// point decodes [unixSeconds, "value"].
func point(raw json.RawMessage) (Point, error) {
	var pair [2]any
	if err := json.Unmarshal(raw, &pair); err != nil {
		return Point{}, fmt.Errorf("decoding a sample: %w", err)
	}
	ts, ok1 := pair[0].(float64)
	vs, ok2 := pair[1].(string)
	if !ok1 || !ok2 {
		return Point{}, errors.New("decoding a sample: not [time, \"value\"]")
	}
	v, err := strconv.ParseFloat(vs, 64)
	if err != nil {
		return Point{}, fmt.Errorf("decoding a sample value %q: %w", vs, err)
	}
	return Point{T: unixTime(ts), V: v}, nil
}

// unixTime is the API's time (seconds since the epoch, to the millisecond) as a time.
func unixTime(ts float64) time.Time {
	sec, frac := math.Modf(ts)
	return time.Unix(int64(sec), int64(math.Round(frac*1e3))*1e6).UTC()
}

// firstBytes shows what came instead of the API's JSON: its type and an excerpt.
func firstBytes(b []byte, contentType string) string {
	if contentType == "" {
		contentType = "no Content-Type"
	}
	return fmt.Sprintf("%s, %q", redact.ExcerptString(contentType), redact.Excerpt(b))
}
