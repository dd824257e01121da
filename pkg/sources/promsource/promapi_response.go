package promsource

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
)

// Response is a query's answer: its series (one point each for an instant vector, the raw
// samples of the range for a range vector) and the server's warnings, at most MaxWarnings,
// each an excerpt (redact.ExcerptString: bounded, credentials masked, control characters
// escaped), never the raw text. Partial says that the server answered without some of its
// stores (a warning that is not a PromQL annotation, or VictoriaMetrics' isPartial).
type Response struct {
	Series   []Series
	Warnings []string
	Partial  bool
}

// Series is one labelled series of an answer.
type Series struct {
	Labels map[string]string
	// Key is the series' identity: its labels sorted by name, each name=value\xff, built as
	// the answer was read when it gave them in that order (Prometheus and Thanos do); "" when
	// it did not, or when Labels changed since.
	Key    string
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

// TooManySeriesError is an answer with more series than the limit. The answer stops being
// read at the first series past the limit: Series is that one's number, not the answer's total.
type TooManySeriesError struct {
	Series, Limit int
}

func (e *TooManySeriesError) Error() string {
	return fmt.Sprintf("an answer holds more than %d series, the limit (--prometheus-max-series): narrow it with -n or --clusters, or raise the limit", e.Limit)
}

// TooLargeError is an answer larger than the cap.
type TooLargeError struct {
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("an answer is larger than %d bytes (--max-body-bytes): narrow it with -n or --clusters, or raise the limit", e.Limit)
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
