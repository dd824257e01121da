package promsource

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// labelKeyBefore is labelKey as it was built before: through the protobuf pairs of a copy
// of the labels. The baseline of BenchmarkLabelKey and the reference of FuzzLabelKey.
func labelKeyBefore(l map[string]string, drop ...string) string {
	var b []byte
	for _, p := range labelPairs(without(l, drop...)) {
		b = append(b, p.GetName()+"="+p.GetValue()+"\xff"...)
	}
	return string(b)
}

// FuzzLabelKey: labelKey is the key it always was, whatever the labels and the dropped ones.
func FuzzLabelKey(f *testing.F) {
	f.Add("__name__", "workqueue_adds_total", "name", "q", "le", "0.1", "le")
	f.Add("", "", "a", "", "a", "b", "")
	f.Add("z\xff", "=", "a=", "\xff", "quantile", "0.5", "quantile")
	f.Fuzz(func(t *testing.T, k1, v1, k2, v2, k3, v3, drop string) {
		l := map[string]string{k1: v1, k2: v2, k3: v3}
		for _, d := range [][]string{nil, {drop}, {drop, k1}} {
			if got, want := labelKey(l, d...), labelKeyBefore(l, d...); got != want {
				t.Fatalf("labelKey(%q, %q) = %q, was %q", l, d, got, want)
			}
		}
	})
}

// BenchmarkLabelKey: a series' key, against the way it was built before, in the same run.
func BenchmarkLabelKey(b *testing.B) {
	l := map[string]string{"__name__": "workqueue_work_duration_seconds_bucket", "controller": "deployment", "instance": "10.64.1.7:8443",
		"job": "team-07/controller-manager-metrics", "le": "0.005", "name": "deployment", "namespace": "team-07", "pod": "controller-0007-7d9f8b6c5-x2x4z"}
	b.Run("now", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = labelKey(l, "le")
		}
	})
	b.Run("before", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = labelKeyBefore(l, "le")
		}
	})
}

// The key the decoder builds as it reads an answer whose labels come sorted (Prometheus') is
// labelKey's: the reading uses one for the other.
func TestDecodedKeyIsLabelKey(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"status":"success","data":{"resultType":"vector","result":[` +
			`{"metric":{"__name__":"workqueue_depth","instance":"10.0.0.1:8080","job":"op","name":"q=\u00ff","namespace":"ns"},"value":[1700000000,"1"]},` +
			`{"metric":{"__name__":"workqueue_depth","instance":"10.0.0.1:8080","job":"op","name":"a b","namespace":"ns"},"value":[1700000000,"2"]},` +
			`{"metric":{"":"","le":"+Inf","zz":"="},"value":[1700000000,"3"]}]}}`))
	}))
	defer srv.Close()
	c, err := NewClient(ClientConfig{URL: srv.URL, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Query(context.Background(), "q", time.Unix(1700000000, 0))
	if err != nil {
		t.Fatal(err)
	}
	keyed := 0
	for _, s := range resp.Series {
		if s.Key != "" {
			keyed++
			if want := labelKey(s.Labels); s.Key != want {
				t.Errorf("decoded key %q, labelKey %q", s.Key, want)
			}
		}
		if seriesKey(s) != labelKey(s.Labels) {
			t.Errorf("seriesKey %q, labelKey %q", seriesKey(s), labelKey(s.Labels))
		}
	}
	// The escaped value takes encoding/json's path, which builds no key.
	if len(resp.Series) != 3 || keyed != 2 {
		t.Errorf("%d series, %d with a decoded key, want 3 and 2", len(resp.Series), keyed)
	}
}
