package promsource

import (
	"bytes"
	"errors"
	"io"
	"math"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// agreeSeeds are answers of every shape the decoders meet, and broken ones.
var agreeSeeds = []string{
	emptyMatrix,
	oneVector,
	nativeVector,
	`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"a":"b"},"values":[[1,"1"]],"histograms":[[2,{"count":"1","sum":"1","buckets":[[0,"1","2","1"]]}]]}]}}`,
	`{"data":{"result":[{"metric":{},"value":[1,"2"]}],"resultType":"vector"},"status":"success"}`,
	`{"status":"success","data":{"resultType":"vector","result":[{"metric":{"a\u0062":"\u00e9\n"},"value":[1.5e3,"NaN"]}]}}`,
	`{"status":"success","data":{"resultType":"vector","result":[{"metric":{}}]}}`,
	`{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1]}]}}`,
	`{"status":"success","data":{"resultType":"scalar","result":[1,"1"]}}`,
	`{"status":"error","errorType":"bad_data","error":"x","data":{"resultType":"vector","result":[1,]}}`,
	`{"kind":"Status","status":"Failure","message":"services \"p\" not found"}`,
	`{"status":"success","isPartial":true,"warnings":["w"],"data":{"resultType":"vector","result":[]}}`,
	`{"status":"success","data":{"resultType":"vector","result":[` + strings.Repeat(`{"metric":{"x":"y"},"value":[1,"1"]},`, 4) + `{"metric":{},"value":[1,"1"]}]}}`,
	`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"a":"1","a":"2"},"values":[[2,"1"],[1,"-0.5e-3"]]}]}}`,
	`{"status":"success","extra":[{"x":[true,false,null,-0.0e+1]}],"data":{"resultType":"vector","result":[],"x":{}}}`,
	`{"st\u0061tus":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[01,"1"]}]}}`,
	` {"status":"success","data":{"resultType":"vector","result":[]}} trailing`,
	`{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"1"]} {"metric":{}}]}}`,
	`{"status":"success","data":{"resultType":"vector","result":[]},}`,
	`<html>bad gateway</html>`,
	``,
}

// FuzzDecodeAgrees feeds any answer to the lexer's decoder and to encoding/json's (the
// decoder as it was): they must give the same answer, or fail alike (the same kind of error:
// too many series, an API error with the same words, not the API's answer, or another).
func FuzzDecodeAgrees(f *testing.F) {
	for _, s := range agreeSeeds {
		f.Add([]byte(s), uint8(3))
	}
	f.Fuzz(func(t *testing.T, body []byte, maxSeries uint8) {
		checkAgree(t, body, max(1, int(maxSeries)))
	})
}

// The seeds agree in plain `go test` as well.
func TestDecodeAgreesOnSeeds(t *testing.T) {
	for _, s := range agreeSeeds {
		for _, limit := range []int{1, 3, 100} {
			checkAgree(t, []byte(s), limit)
		}
	}
}

func checkAgree(t *testing.T, body []byte, maxSeries int) {
	t.Helper()
	const limit = 1 << 22 // over any input: where the reading stops past the cap may differ
	if len(body) >= limit {
		return
	}
	for _, want := range []string{vector, matrix, ""} {
		resp := func() *http.Response {
			return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(bytes.NewReader(body))}
		}
		got, _, gotErr := decodeWith(decodeStream, resp(), want, limit, maxSeries)
		ref, _, refErr := decodeWith(refDecodeStream, resp(), want, limit, maxSeries)
		if g, r := errClass(gotErr), errClass(refErr); g != r {
			t.Fatalf("%q as %q: the lexer says %v (%s), encoding/json %v (%s)", body, want, gotErr, g, refErr, r)
		}
		if gotErr == nil && !sameResponse(got, ref) {
			t.Fatalf("%q as %q: the lexer reads %+v, encoding/json %+v", body, want, got, ref)
		}
	}
}

// errClass is the kind of a decoding error, as far as the two decoders must agree.
func errClass(err error) string {
	var many *TooManySeriesError
	var api *APIError
	var large *TooLargeError
	switch {
	case err == nil:
		return "none"
	case errors.As(err, &many):
		return "too many series"
	case errors.As(err, &large):
		return "too large"
	case errors.As(err, &api):
		return "api: " + api.Error()
	case strings.Contains(err.Error(), "not the Prometheus API's"):
		return "not the API's"
	}
	return "other"
}

// sameResponse compares answers, NaN equal to NaN.
func sameResponse(a, b *Response) bool {
	if len(a.Series) != len(b.Series) || !reflect.DeepEqual(a.Warnings, b.Warnings) || a.Partial != b.Partial {
		return false
	}
	for i := range a.Series {
		x, y := a.Series[i], b.Series[i]
		if !reflect.DeepEqual(x.Labels, y.Labels) || len(x.Points) != len(y.Points) {
			return false
		}
		for j := range x.Points {
			p, q := x.Points[j], y.Points[j]
			if !p.T.Equal(q.T) || !reflect.DeepEqual(p.H, q.H) ||
				p.V != q.V && !(math.IsNaN(p.V) && math.IsNaN(q.V)) || math.Signbit(p.V) != math.Signbit(q.V) {
				return false
			}
		}
	}
	return true
}
