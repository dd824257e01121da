package promsource

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// stdlibSeries is the general path alone: encoding/json, then convert.
func stdlibSeries(raw []byte, resultType string) (Series, error) {
	var rs rawSeries
	if err := json.Unmarshal(raw, &rs); err != nil {
		return Series{}, err
	}
	return convert(rs, resultType)
}

// refKey is a series' key as Series.Key documents it, from its labels.
func refKey(l map[string]string) string {
	names := make([]string, 0, len(l))
	for n := range l {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		b.WriteString(n + "=" + l[n] + "\xff")
	}
	return b.String()
}

// sameSeries compares series as reflect.DeepEqual does, but values by their bits (NaN is a
// value a series may hold); a key either has is the key of its labels.
func sameSeries(a, b Series) bool {
	if !reflect.DeepEqual(a.Labels, b.Labels) || (a.Points == nil) != (b.Points == nil) || len(a.Points) != len(b.Points) {
		return false
	}
	if a.Key != "" && a.Key != refKey(a.Labels) || b.Key != "" && b.Key != refKey(b.Labels) {
		return false
	}
	for i, p := range a.Points {
		q := b.Points[i]
		if p.T != q.T || math.Float64bits(p.V) != math.Float64bits(q.V) || !reflect.DeepEqual(p.H, q.H) {
			return false
		}
	}
	return true
}

// FuzzFastSeries: on any valid JSON, what fastSeries reads is what encoding/json reads, and
// it leaves to encoding/json whatever that one refuses.
func FuzzFastSeries(f *testing.F) {
	for _, s := range []string{
		`{"metric":{"__name__":"up","job":"j"},"value":[1700000000.123,"1"]}`,
		`{"metric":{},"values":[[1,"1"],[2,"2.5"],[3,"NaN"],[4,"+Inf"]]}`,
		`{"metric":{"a":"b","a":"c"},"value":[1,"1e3"]}`,
		`{ "metric" : { "a" : "b" } , "values" : [ [ 1 , "1" ] ] }`,
		`{"metric":{"a":"b"},"values":[[2,"1"],[1,"2"]]}`,
		`{"metric":{"a":"b"},"values":[]}`,
		`{"Metric":{"a":"b"},"value":[1,"1"]}`,
		`{"metric":{"a":"\u00e9"},"value":[1,"1"]}`,
		`{"metric":{"a":"b"},"value":[1,"1",2]}`,
		`{"metric":{"a":"b"},"value":[1e400,"1"]}`,
		`{"metric":{"a":"b"},"value":[1,"x"]}`,
		`{"metric":{"a":"b"},"value":null}`,
		`{"metric":null,"value":[1,"1"]}`,
		`{"metric":{"a":"b"},"value":[1,"1"],"other":3}`,
		`{"metric":{"a":"b"},"histogram":[1,{"count":"1","sum":"1","buckets":[[0,"1","2","1"]]}]}`,
		`{"metric":{"a":1},"value":[1,"1"]}`,
		`null`, `[]`, `{}`, `"x"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) {
			return // the decoder hands over only what it has read whole
		}
		for _, kind := range []string{vector, matrix} {
			got, ok := fastSeries(raw, kind, newInterner())
			if !ok {
				continue
			}
			want, err := stdlibSeries(raw, kind)
			if err != nil {
				t.Fatalf("%s as a %s: fastSeries read %+v, encoding/json refuses it: %v", raw, kind, got, err)
			}
			if !sameSeries(got, want) {
				t.Fatalf("%s as a %s: fastSeries read %+v, encoding/json %+v", raw, kind, got, want)
			}
		}
	})
}

// TestFastSeriesReadsPrometheusAnswers: the usual shapes take the fast path (else the
// benchmark below would measure the general one).
func TestFastSeriesReadsPrometheusAnswers(t *testing.T) {
	for _, tc := range []struct{ raw, kind string }{
		{`{"metric":{"__name__":"up","job":"j"},"value":[1700000000.123,"1"]}`, vector},
		{`{"metric":{"job":"j"},"values":[[1700000000,"1"],[1700000060,"2"]]}`, matrix},
	} {
		got, ok := fastSeries([]byte(tc.raw), tc.kind, newInterner())
		want, err := stdlibSeries([]byte(tc.raw), tc.kind)
		if !ok || err != nil || !sameSeries(got, want) {
			t.Errorf("%s: fast %v %+v, encoding/json %+v %v", tc.raw, ok, got, want, err)
		}
	}
}

// The key is built as the labels are read when they come sorted by name (as Prometheus gives
// them), and left empty otherwise: out of order, or a name given twice.
func TestFastSeriesKey(t *testing.T) {
	for _, tc := range []struct{ raw, key string }{
		{`{"metric":{"__name__":"up","job":"j","le":"0.1"},"value":[1,"1"]}`, "__name__=up\xffjob=j\xffle=0.1\xff"},
		{`{"metric":{"":"e","a":""},"value":[1,"1"]}`, "=e\xffa=\xff"},
		{`{"metric":{"job":"j","__name__":"up"},"value":[1,"1"]}`, ""},
		{`{"metric":{"a":"b","a":"c"},"value":[1,"1"]}`, ""},
		{`{"metric":{},"value":[1,"1"]}`, ""},
	} {
		got, ok := fastSeries([]byte(tc.raw), vector, newInterner())
		if !ok || got.Key != tc.key {
			t.Errorf("%s: fast path %v, key %q, want %q", tc.raw, ok, got.Key, tc.key)
		}
	}
}

// bigVector is an answer like the families query's over a fleet: targets x series.
func bigVector(targets, series int) []byte {
	var b strings.Builder
	b.WriteString(`{"status":"success","data":{"resultType":"vector","result":[`)
	for t := range targets {
		for s := range series {
			if t+s > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"metric":{"__name__":"workqueue_adds_total","controller":"c%[2]d","instance":"10.0.%[1]d.1:8443","job":"team/controller-manager-metrics","name":"c%[2]d","namespace":"team","pod":"controller-%04[1]d-7d9f8b6c5-x2x4z"},"value":[1700000000.123,"%[1]d%[2]d"]}`, t, s)
		}
	}
	b.WriteString(`]}}`)
	return []byte(b.String())
}

// BenchmarkDecode reads a 50-target answer with the fast path (decode) and, as the baseline
// in the same run, with encoding/json alone, series by series, as before it.
func BenchmarkDecode(b *testing.B) {
	body := bigVector(50, 259)
	b.Run("fast", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			resp := &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(bytes.NewReader(body))}
			if _, _, err := decode(resp, vector, 1<<30, 1<<30); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			dec := json.NewDecoder(bytes.NewReader(body))
			var env struct {
				Data struct {
					Result []rawSeries `json:"result"`
				} `json:"data"`
			}
			if err := dec.Decode(&env); err != nil {
				b.Fatal(err)
			}
			for _, rs := range env.Data.Result {
				if _, err := convert(rs, vector); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
