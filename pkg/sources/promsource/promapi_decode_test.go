package promsource

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

const (
	emptyMatrix = `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"job":"j"},"values":[]}]}}`
	oneVector   = `{"status":"success","data":{"resultType":"vector","result":[{"metric":{"job":"j"},"value":[1700000000,"1"]}]}}`
)

// An answer of another kind than the query asks for is refused: a matrix is not read as its
// oldest samples, nor a vector as a range.
func TestAnswerOfTheWrongKindIsRefused(t *testing.T) {
	at := time.Unix(1700000000, 0)
	for _, tc := range []struct {
		name, body string
		query      func(c *Client) (*Response, error)
		want       string
	}{
		{"matrix to an instant query", emptyMatrix, func(c *Client) (*Response, error) { return c.Query(context.Background(), "up", at) },
			"a matrix where the query asks for a vector"},
		{"matrix with samples to an instant query", strings.Replace(emptyMatrix, `[]`, `[[1,"1"],[2,"2"]]`, 1),
			func(c *Client) (*Response, error) { return c.Query(context.Background(), "up", at) }, "a matrix where the query asks for a vector"},
		{"vector to a range selector", oneVector, func(c *Client) (*Response, error) { return c.QueryMatrix(context.Background(), "up[5m]", at) },
			"a vector where the query asks for a matrix"},
		{"vector to a range query", oneVector, func(c *Client) (*Response, error) {
			return c.QueryRange(context.Background(), "up", at, at.Add(time.Minute), 15*time.Second)
		}, "a vector where the query asks for a matrix"},
		{"a vector's series without its sample", `{"status":"success","data":{"resultType":"vector","result":[{"metric":{"job":"j"}}]}}`,
			func(c *Client) (*Response, error) { return c.Query(context.Background(), "up", at) }, "has no value"},
		{"a scalar", `{"status":"success","data":{"resultType":"scalar","result":[1,"1"]}}`,
			func(c *Client) (*Response, error) { return c.Query(context.Background(), "up", at) }, "a scalar, not a vector or matrix"},
		{"no resultType", `{"status":"success","data":{"result":[]}}`,
			func(c *Client) (*Response, error) { return c.Query(context.Background(), "up", at) }, "no resultType"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := serve(t, func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(tc.body)) })
			r, err := tc.query(c)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("answer %+v, err %v; want an error saying %q", r, err, tc.want)
			}
		})
	}
}

// The result may come before its resultType: the series are read once the type is known.
func TestResultBeforeResultType(t *testing.T) {
	c := serve(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"data":{"result":[{"metric":{"job":"j"},"value":[1700000000,"2"]}],"resultType":"vector"},"status":"success"}`))
	})
	r, err := c.Query(context.Background(), "up", time.Unix(1700000000, 0))
	if err != nil || len(r.Series) != 1 || len(r.Series[0].Points) != 1 || r.Series[0].Points[0].V != 2 {
		t.Fatalf("answer %+v, err %v", r, err)
	}
}

// The series limit stops the reading of an answer at the first series past it: an answer of
// many small series is not decoded whole before it is refused.
func TestSeriesLimitStopsTheReading(t *testing.T) {
	const series = 500000 // about 20 MB of answer
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"status":"success","data":{"resultType":"vector","result":[`)
		one := `{"metric":{"a":"b"},"value":[1,"1"]}`
		chunk := strings.Repeat(one+",", 1000)
		for i := 0; i < series/1000; i++ {
			if _, err := io.WriteString(w, chunk); err != nil {
				return // the client stopped reading
			}
		}
		_, _ = io.WriteString(w, one+`]}}`)
	}))
	defer srv.Close()
	c, err := NewClient(ClientConfig{URL: srv.URL, MaxSeries: 100, MaxBytes: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Query(context.Background(), "up", time.Now())
	var tooMany *TooManySeriesError
	if !errors.As(err, &tooMany) || !strings.Contains(err.Error(), "more than 100 series") || !strings.Contains(err.Error(), "--prometheus-max-series") {
		t.Fatalf("err = %v, want more than 100 series (--prometheus-max-series)", err)
	}
	if read := c.Stats().Bytes; read > 1<<20 {
		t.Errorf("%d bytes read before the answer was refused, want the reading stopped at the 101st series", read)
	}
}
