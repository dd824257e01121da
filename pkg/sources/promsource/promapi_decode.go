package promsource

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sort"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/redact"
)

// The kinds of answer a query asks for: an instant query of an expression gives a vector, an
// instant query of a range selector and a range query a matrix.
const (
	vector = "vector"
	matrix = "matrix"
)

// rawSeries is one element of an answer's result, before its samples are read.
type rawSeries struct {
	Metric     map[string]string `json:"metric"`
	Value      json.RawMessage   `json:"value"`
	Values     []json.RawMessage `json:"values"`
	Histogram  json.RawMessage   `json:"histogram"`
	Histograms []json.RawMessage `json:"histograms"`
}

// envelope is the answer's outer object, apart from its data.
type envelope struct {
	Status    string
	ErrorType string
	Error     string
	Warnings  []string
	// IsPartial is VictoriaMetrics' word for an answer some storage nodes did not contribute to
	// (its cluster version, without -search.denyPartialResponse).
	IsPartial bool
	// Kind and Message are those of a Kubernetes Status, the API server's answer when the
	// service proxy fails (no such service, no endpoints, forbidden).
	Kind    string
	Message string
}

// errNotAPI marks an answer whose outer structure is not the API's.
var errNotAPI = errors.New("not the Prometheus API's answer")

// decode reads an answer of at most maxBytes and maxSeries series, which must be of the kind
// want (vector or matrix); n is the bytes read. The answer is read as a stream, the series
// counted as they come: an answer over either limit stops being read there, and the series
// limit is passed before their labels and samples fill the memory.
func decode(resp *http.Response, want string, maxBytes int64, maxSeries int) (*Response, int64, error) {
	return decodeWith(decodeStream, resp, want, maxBytes, maxSeries)
}

// streamDecoder reads an answer's outer object into env, and its data.
type streamDecoder func(r io.Reader, want string, maxSeries int, env *envelope) (*Response, error)

// decodeWith is decode reading the answer with stream.
func decodeWith(stream streamDecoder, resp *http.Response, want string, maxBytes int64, maxSeries int) (*Response, int64, error) {
	body := &cappedReader{r: resp.Body, limit: maxBytes}
	var env envelope
	out, err := stream(body, want, maxSeries, &env)
	if body.over {
		return nil, body.n, &TooLargeError{Limit: maxBytes}
	}
	if body.err != nil {
		return nil, body.n, fmt.Errorf("reading the answer: %w", body.err)
	}
	if errors.Is(err, errNotAPI) || err == nil && env.Status == "" {
		return nil, body.n, fmt.Errorf("answered %d %s with a body that is not the Prometheus API's (%s): is the URL the API's base (the part before /api/v1)?",
			resp.StatusCode, http.StatusText(resp.StatusCode), firstBytes(body.head, resp.Header.Get("Content-Type")))
	}
	if env.Kind == "Status" && env.Status != "success" {
		return nil, body.n, fmt.Errorf("the API server answered %d %s: %s", resp.StatusCode, http.StatusText(resp.StatusCode), redact.ExcerptString(env.Message))
	}
	if env.Status != "" && (env.Status != "success" || resp.StatusCode/100 != 2) {
		// The server's words are quoted, not trusted: it may echo the request's credentials.
		return nil, body.n, &APIError{Code: resp.StatusCode, ErrorType: redact.ExcerptString(env.ErrorType), Message: redact.ExcerptString(env.Error)}
	}
	if err != nil {
		return nil, body.n, err
	}
	out.Warnings = boundWarnings(env.Warnings)
	if env.IsPartial {
		out.Warnings = append(out.Warnings, "the answer is partial (isPartial: some storage nodes did not answer): series may be missing")
	}
	out.Partial = env.IsPartial || slices.ContainsFunc(out.Warnings, PartialWarning)
	return out, body.n, nil
}

// decodeStream reads the outer object value by value into env, and its data.
func decodeStream(r io.Reader, want string, maxSeries int, env *envelope) (*Response, error) {
	l := newLexer(r)
	if err := l.expect('{'); err != nil {
		return nil, errNotAPI
	}
	out := &Response{}
	for first := true; ; first = false {
		more, err := l.more(first)
		if err != nil {
			return nil, errNotAPI
		}
		if !more {
			break
		}
		key, err := l.key()
		if err != nil {
			return nil, errNotAPI
		}
		if key == "data" {
			var dataErr error
			if out, dataErr = decodeData(l, want, maxSeries); dataErr != nil {
				// An error answer says why in its status and error, whatever its data.
				return nil, dataErr
			}
			continue
		}
		field := env.field(key)
		if field == nil {
			if _, err := l.value(); err != nil {
				return nil, errNotAPI
			}
			continue
		}
		if err := l.valueInto(field); err != nil {
			return nil, errNotAPI
		}
	}
	if err := l.expect('}'); err != nil {
		return nil, errNotAPI
	}
	return out, nil
}

// field is where the envelope keeps the value of key, nil for a key it does not keep (data
// is read on its own).
func (e *envelope) field(key string) any {
	switch key {
	case "status":
		return &e.Status
	case "errorType":
		return &e.ErrorType
	case "error":
		return &e.Error
	case "warnings":
		return &e.Warnings
	case "isPartial":
		return &e.IsPartial
	case "kind":
		return &e.Kind
	case "message":
		return &e.Message
	}
	return nil
}

// decodeData reads the data object: its resultType and its result, series by series.
func decodeData(l *lexer, want string, maxSeries int) (*Response, error) {
	if err := l.colon(); err != nil {
		return nil, fmt.Errorf("decoding the answer: its data is not an object")
	}
	if err := l.expect('{'); err != nil {
		return nil, fmt.Errorf("decoding the answer: its data is not an object")
	}
	out := &Response{}
	resultType := ""
	var pending []rawSeries // read before the resultType said what they are
	for first := true; ; first = false {
		more, err := l.more(first)
		if err != nil {
			return nil, fmt.Errorf("decoding the answer: %w", err)
		}
		if !more {
			break
		}
		key, err := l.key()
		if err != nil {
			return nil, fmt.Errorf("decoding the answer: %w", err)
		}
		switch key {
		case "resultType":
			if err := l.valueInto(&resultType); err != nil {
				return nil, fmt.Errorf("decoding the answer's resultType: %w", err)
			}
			if err := checkType(resultType, want); err != nil {
				return nil, err
			}
		case "result":
			err := l.colon()
			if err == nil {
				err = l.expect('[')
			}
			if err != nil {
				return nil, fmt.Errorf("decoding the answer: its result is not a list")
			}
			in := newInterner()
			for n := 1; ; n++ {
				more, err := l.more(n == 1)
				if !more && err == nil {
					break
				}
				if n > maxSeries {
					return nil, &TooManySeriesError{Series: n, Limit: maxSeries}
				}
				if err != nil {
					return nil, fmt.Errorf("decoding the answer's series %d: %w", n, err)
				}
				// The series is read whole (its syntax checked), then converted: most often
				// by fastSeries, reading Prometheus' usual shape without reflection.
				raw, err := l.raw()
				if err != nil {
					return nil, fmt.Errorf("decoding the answer's series %d: %w", n, err)
				}
				if resultType == "" {
					var rs rawSeries
					if err := json.Unmarshal(raw, &rs); err != nil {
						return nil, fmt.Errorf("decoding the answer's series %d: %w", n, err)
					}
					pending = append(pending, rs)
					continue
				}
				s, err := readSeries(raw, resultType, in, n)
				if err != nil {
					return nil, err
				}
				out.Series = append(out.Series, s)
			}
			if err := l.expect(']'); err != nil {
				return nil, fmt.Errorf("decoding the answer: %w", err)
			}
		default:
			if _, err := l.value(); err != nil {
				return nil, fmt.Errorf("decoding the answer: %w", err)
			}
		}
	}
	if err := l.expect('}'); err != nil {
		return nil, fmt.Errorf("decoding the answer: %w", err)
	}
	if err := checkType(resultType, want); err != nil {
		return nil, err
	}
	for _, rs := range pending {
		s, err := convert(rs, resultType)
		if err != nil {
			return nil, err
		}
		out.Series = append(out.Series, s)
	}
	return out, nil
}

// checkType refuses an answer that is not of the kind the query asks for: a matrix read as a
// vector would be read as its oldest samples, a vector as a matrix would lack the range.
func checkType(got, want string) error {
	switch {
	case got == "":
		return errors.New("the answer has no resultType: it is not a Prometheus API answer to a query")
	case got != vector && got != matrix:
		return fmt.Errorf("the answer is a %s, not a vector or matrix", got)
	case want != "" && got != want:
		return fmt.Errorf("the answer is a %s where the query asks for a %s: the server did not answer the query sent (is it a Prometheus-compatible API?)", got, want)
	}
	return nil
}

// convert reads the samples of one series of an answer of the given type. A vector's series
// has exactly one sample; a matrix's any number, in time order.
func convert(r rawSeries, resultType string) (Series, error) {
	s := Series{Labels: r.Metric}
	if resultType == vector {
		decodePoint, raw := point, r.Value
		if r.Value == nil && r.Histogram != nil {
			decodePoint, raw = histogramPoint, r.Histogram
		}
		if raw == nil {
			return Series{}, fmt.Errorf("decoding a sample: a series of the vector (%v) has no value", r.Metric)
		}
		p, err := decodePoint(raw)
		if err != nil {
			return Series{}, err
		}
		s.Points = []Point{p}
		return s, nil
	}
	s.Points = make([]Point, 0, len(r.Values)+len(r.Histograms))
	for _, v := range r.Values {
		p, err := point(v)
		if err != nil {
			return Series{}, err
		}
		s.Points = append(s.Points, p)
	}
	for _, v := range r.Histograms {
		p, err := histogramPoint(v)
		if err != nil {
			return Series{}, err
		}
		s.Points = append(s.Points, p)
	}
	// A series that changed from floats to histograms (or back) has both: in time order.
	sort.SliceStable(s.Points, func(i, j int) bool { return s.Points[i].T.Before(s.Points[j].T) })
	return s, nil
}

// cappedReader reads at most limit bytes of r, then says the answer is over (one byte more is
// read to tell an answer of exactly limit bytes from a larger one). It keeps the first bytes to
// show what came when it is not the API's JSON.
type cappedReader struct {
	r     io.Reader
	limit int64
	n     int64
	over  bool
	head  []byte
	// err is the reading's failure other than the end of the answer.
	err error
}

// headBytes is how much of an answer is kept to show.
const headBytes = 256

func (c *cappedReader) Read(p []byte) (int, error) {
	if c.over {
		return 0, errTooLarge
	}
	if rest := c.limit + 1 - c.n; int64(len(p)) > rest {
		p = p[:rest]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	if len(c.head) < headBytes {
		c.head = append(c.head, p[:min(n, headBytes-len(c.head))]...)
	}
	if c.n > c.limit {
		c.over = true
		return n, errTooLarge
	}
	if err != nil && err != io.EOF {
		c.err = err
	}
	return n, err
}

// errTooLarge stops the reading of an answer over the cap.
var errTooLarge = errors.New("the answer is over the size cap")

// expectDelim reads the next token of dec, which must be d.
func expectDelim(dec *json.Decoder, d json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if got, ok := tok.(json.Delim); !ok || got != d {
		return fmt.Errorf("found %v where %v was expected", tok, d)
	}
	return nil
}
