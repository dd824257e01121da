package promsource

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"
)

// nativeVector is an instant query's answer holding a native histogram, in the shape of the
// HTTP API's documentation: a zero bucket closed on both sides, a negative bucket open on the
// right, positive ones open on the left.
const nativeVector = `{"status":"success","data":{"resultType":"vector","result":[
 {"metric":{"__name__":"workqueue_work_duration_seconds","name":"q"},
  "histogram":[1700000000.5,{"count":"7","sum":"1.25",
   "buckets":[[1,"-1","-0.9170040432046712","1"],[3,"-0.001","0.001","2"],[0,"0.17677669529663687","0.19283385257337296","3"],[0,"0.5","0.5452538663326288","1"]]}]},
 {"metric":{"__name__":"workqueue_depth","name":"q"},"value":[1700000000.5,"4"]}]}}`

func TestQueryDecodesNativeHistograms(t *testing.T) {
	c := serve(t, func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		if strings.HasSuffix(r.Form.Get("query"), "[5m]") {
			// A range whose series turned from floats into histograms: both fields, in time order.
			_, _ = w.Write([]byte(`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"h"},
			 "values":[[1700000000,"3"]],
			 "histograms":[[1700000030,{"count":"2","sum":"0.5","buckets":[[0,"0.25","0.5","2"]]}],[1700000015,{"count":"1","sum":"0.3","buckets":[[0,"0.25","0.5","1"]]}]]}]}}`))
			return
		}
		_, _ = w.Write([]byte(nativeVector))
	})
	r, err := c.Query(context.Background(), "x", time.Unix(1700000000, 0))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Series) != 2 {
		t.Fatalf("series %+v", r.Series)
	}
	p := r.Series[0].Points[0]
	if p.H == nil || !math.IsNaN(p.V) || p.T != time.UnixMilli(1700000000500).UTC() || p.H.Count != 7 || p.H.Sum != 1.25 || len(p.H.Buckets) != 4 {
		t.Fatalf("histogram point %+v %+v", p, p.H)
	}
	if b := p.H.Buckets[1]; b.Rule != 3 || b.Lower != -0.001 || b.Upper != 0.001 || b.Count != 2 {
		t.Errorf("zero bucket %+v", b)
	}
	if b := p.H.Buckets[2]; b.Rule != 0 || b.Lower != 0.17677669529663687 || b.Upper != 0.19283385257337296 || b.Count != 3 {
		t.Errorf("positive bucket %+v", b)
	}
	if f := r.Series[1].Points[0]; f.H != nil || f.V != 4 {
		t.Errorf("float point %+v", f)
	}

	m, err := c.QueryMatrix(context.Background(), "h[5m]", time.Unix(1700000000, 0))
	if err != nil {
		t.Fatal(err)
	}
	ps := m.Series[0].Points
	if len(ps) != 3 || ps[0].V != 3 || ps[0].H != nil || ps[1].H == nil || ps[1].H.Count != 1 || ps[2].H == nil || ps[2].H.Count != 2 {
		t.Errorf("matrix points %+v", ps)
	}
}

func TestNativeHistogramsAreBounded(t *testing.T) {
	for name, body := range map[string]string{
		"a bucket not [rule, lower, upper, count]": `{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"histogram":[1,{"count":"1","sum":"1","buckets":[[0,0.5,"1","1"]]}]}]}}`,
		"an unknown boundary rule":                 `{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"histogram":[1,{"count":"1","sum":"1","buckets":[[7,"0.5","1","1"]]}]}]}}`,
		"a count that is not a number":             `{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"histogram":[1,{"count":"many","sum":"1","buckets":[]}]}]}}`,
		"a bucket upside down":                     `{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"histogram":[1,{"count":"1","sum":"1","buckets":[[0,"2","1","1"]]}]}]}}`,
		"a sample that is not a pair":              `{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"histogram":{"count":"1"}}]}}`,
	} {
		t.Run(name, func(t *testing.T) {
			c := serve(t, func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(body)) })
			if _, err := c.Query(context.Background(), "x", time.Now()); err == nil || !strings.Contains(err.Error(), "histogram") {
				t.Errorf("err = %v, want an error about the histogram", err)
			}
		})
	}
	// The series limit (2) counts histogram series like the others.
	c := serve(t, func(w http.ResponseWriter, r *http.Request) {
		h := `{"metric":{},"histogram":[1,{"count":"1","sum":"1","buckets":[[0,"0.5","1","1"]]}]}`
		_, _ = w.Write([]byte(`{"status":"success","data":{"resultType":"vector","result":[` + h + "," + h + "," + h + `]}}`))
	})
	var tooMany *TooManySeriesError
	if _, err := c.Query(context.Background(), "x", time.Now()); !errors.As(err, &tooMany) || tooMany.Series != 3 {
		t.Errorf("err = %v, want too many series (3 > 2)", err)
	}
}
