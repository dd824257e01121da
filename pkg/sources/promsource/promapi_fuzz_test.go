package promsource

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
)

// FuzzDecode feeds the decoder any answer, asked as a vector and as a matrix: it must never
// panic, and what it accepts must keep its promises (a vector's series one sample each, the
// series and bucket limits held).
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		emptyMatrix,
		oneVector,
		nativeVector,
		`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"a":"b"},"values":[[1,"1"]],"histograms":[[2,{"count":"1","sum":"1","buckets":[[0,"1","2","1"]]}]]}]}}`,
		`{"data":{"result":[{"metric":{},"value":[1,"2"]}],"resultType":"vector"},"status":"success"}`,
		`{"status":"success","data":{"resultType":"vector","result":[{"metric":{}}]}}`,
		`{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1]}]}}`,
		`{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"histogram":[1,{"count":"1","sum":"1","buckets":[[0,"1"]]}]}]}}`,
		`{"status":"success","data":{"resultType":"scalar","result":[1,"1"]}}`,
		`{"status":"error","errorType":"bad_data","error":"x"}`,
		`{"kind":"Status","status":"Failure","message":"services \"p\" not found"}`,
		`{"status":"success","isPartial":true,"data":{"resultType":"vector","result":[]}}`,
		`{"status":"success","data":{"resultType":"vector","result":[` + strings.Repeat(`{"metric":{},"value":[1,"1"]},`, 4) + `{"metric":{},"value":[1,"1"]}]}}`,
		`<html>bad gateway</html>`,
		``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, want := range []string{vector, matrix} {
			resp := &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(bytes.NewReader(body))}
			r, n, err := decode(resp, want, 1<<16, 3)
			if n > 1<<16+1 {
				t.Fatalf("read %d bytes past the cap", n)
			}
			if err != nil {
				continue
			}
			if len(r.Series) > 3 {
				t.Fatalf("%d series past the limit of 3", len(r.Series))
			}
			for _, s := range r.Series {
				if want == vector && len(s.Points) != 1 {
					t.Fatalf("a vector's series has %d samples", len(s.Points))
				}
				for _, p := range s.Points {
					if p.H != nil && len(p.H.Buckets) > MaxNativeBuckets {
						t.Fatalf("%d buckets past the cap", len(p.H.Buckets))
					}
				}
			}
		}
	})
}
