package promsource

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func serve(t *testing.T, h http.HandlerFunc) *Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c, err := NewClient(ClientConfig{URL: srv.URL + "/prefix/", Token: "s3cret-token", Headers: map[string]string{"X-Scope-OrgID": "tenant-a"},
		Timeout: 2 * time.Second, MaxBytes: 4096, MaxSeries: 2})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestQueryDecodesVectorAndMatrix(t *testing.T) {
	var got *http.Request
	c := serve(t, func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		got = r
		if strings.HasSuffix(r.Form.Get("query"), "[5m]") {
			_, _ = w.Write([]byte(`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"a_total","job":"j"},"values":[[1700000000,"1"],[1700000015.5,"NaN"]]}]}}`))
			return
		}
		_, _ = w.Write([]byte(`{"status":"success","warnings":["partial response: store b down"],"data":{"resultType":"vector","result":[{"metric":{"__name__":"up","job":"j"},"value":[1700000000.25,"+Inf"]}]}}`))
	})
	at := time.Unix(1700000000, 0)
	r, err := c.Query(context.Background(), "up", at)
	if err != nil {
		t.Fatal(err)
	}
	if got.URL.Path != "/prefix/api/v1/query" || got.Form.Get("time") != "1700000000.000" || got.Form.Get("timeout") != "2s" {
		t.Errorf("request %s %v", got.URL.Path, got.Form)
	}
	if got.Header.Get("Authorization") != "Bearer s3cret-token" || got.Header.Get("X-Scope-OrgID") != "tenant-a" {
		t.Errorf("headers %v", got.Header)
	}
	if len(r.Series) != 1 || r.Series[0].Labels["job"] != "j" || r.Series[0].Points[0].V <= 1e308 ||
		r.Series[0].Points[0].T != time.UnixMilli(1700000000250).UTC() {
		t.Errorf("vector %+v", r.Series)
	}
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "partial response") {
		t.Errorf("warnings %v", r.Warnings)
	}
	m, err := c.QueryMatrix(context.Background(), "a_total[5m]", at)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Series) != 1 || len(m.Series[0].Points) != 2 || m.Series[0].Points[1].V == m.Series[0].Points[1].V {
		t.Errorf("matrix %+v", m.Series)
	}
	if st := c.Stats(); st.Queries != 2 || st.Series != 2 || st.Bytes == 0 {
		t.Errorf("stats %+v", st)
	}
}

func TestQueryErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		h    http.HandlerFunc
		want []string
	}{
		{"api error", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"status":"error","errorType":"bad_data","error":"parse error at char 3"}`))
		}, []string{"answered 400 Bad Request: bad_data: parse error at char 3"}},
		{"server error", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"status":"error","errorType":"timeout","error":"query timed out in expression evaluation"}`))
		}, []string{"503", "timeout: query timed out"}},
		{"not the API", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadGateway)
			_, _ = w.Write([]byte(`<html><body>Bad gateway</body></html>`))
		}, []string{"502", "not the Prometheus API's", "text/html", "the part before /api/v1"}},
		{"too many series", func(w http.ResponseWriter, r *http.Request) {
			_, _ = w.Write([]byte(`{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"1"]},{"metric":{},"value":[1,"1"]},{"metric":{},"value":[1,"1"]}]}}`))
		}, []string{"more than 2 series, the limit (--prometheus-max-series)"}},
		{"too large", func(w http.ResponseWriter, r *http.Request) {
			_, _ = w.Write([]byte(`{"status":"success","data":{"resultType":"vector","result":[` + strings.Repeat(" ", 5000) + `]}}`))
		}, []string{"larger than 4096 bytes"}},
		{"timeout", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(3 * time.Second):
			}
		}, []string{"did not answer a query within 2s (--timeout)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := serve(t, tc.h)
			_, err := c.Query(context.Background(), "up", time.Now())
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "s3cret-token") {
				t.Errorf("error shows the token: %q", err)
			}
		})
	}
}

func TestServerDown(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	c, err := NewClient(ClientConfig{URL: url, Token: "s3cret-token"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Query(context.Background(), "up", time.Now())
	if err == nil || !strings.Contains(err.Error(), "cannot reach Prometheus at "+url) || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("error %v", err)
	}
	var api *APIError
	if errors.As(err, &api) {
		t.Errorf("a transport error is no API error")
	}
}

func TestParseURL(t *testing.T) {
	for raw, want := range map[string]string{
		"http://prom:9090":                   "http://prom:9090",
		"https://mimir.example/prometheus/":  "https://mimir.example/prometheus",
		"http://prom:9090/api/v1":            "http://prom:9090",
		"https://user:pw@thanos.example:443": "https://user:xxxxx@thanos.example:443",
	} {
		u, err := ParseURL(raw)
		if err != nil || u.Redacted() != want {
			t.Errorf("ParseURL(%q) = %v, %v; want %s", raw, u, err, want)
		}
	}
	for _, bad := range []string{"prom:9090", "ftp://x", "http://prom:9090/?x=1", "https://user:pw@"} {
		if _, err := ParseURL(bad); err == nil {
			t.Errorf("ParseURL(%q) accepted", bad)
		} else if strings.Contains(err.Error(), "pw") {
			t.Errorf("ParseURL(%q) shows the password: %v", bad, err)
		}
	}
}

// VictoriaMetrics says an answer is partial with isPartial rather than a warning: it is one.
func TestIsPartialIsAWarning(t *testing.T) {
	c := serve(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"status":"success","isPartial":true,"stats":{"seriesFetched":"1"},"data":{"resultType":"vector","result":[{"metric":{"job":"j"},"value":[1700000000,"1"]}]}}`))
	})
	r, err := c.Query(context.Background(), "up", time.Unix(1700000000, 0))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Series) != 1 || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "isPartial") {
		t.Errorf("answer %+v, want one series and a warning that it is partial", r)
	}
}

// QueryRange asks /api/v1/query_range with the range's ends and step, and decodes its matrix.
func TestQueryRange(t *testing.T) {
	var got *http.Request
	c := serve(t, func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		got = r
		_, _ = w.Write([]byte(`{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"name":"q"},"values":[[1700000000,"1"],[1700000015,"2"]]}]}}`))
	})
	start := time.Unix(1700000000, 0)
	r, err := c.QueryRange(context.Background(), "workqueue_depth", start, start.Add(15*time.Second), 15*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	f := got.Form
	if got.URL.Path != "/prefix/api/v1/query_range" || f.Get("query") != "workqueue_depth" || f.Get("start") != "1700000000.000" ||
		f.Get("end") != "1700000015.000" || f.Get("step") != "15.000" || f.Get("timeout") != "2s" {
		t.Errorf("request %s %v", got.URL.Path, f)
	}
	if got.Header.Get("Authorization") != "Bearer s3cret-token" {
		t.Errorf("headers %v", got.Header)
	}
	if len(r.Series) != 1 || len(r.Series[0].Points) != 2 || r.Series[0].Points[1].V != 2 {
		t.Errorf("matrix %+v", r.Series)
	}
}
