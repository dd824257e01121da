package promsource

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// thanosStoreDown is the warning Thanos Query gives when a sidecar it must ask is down.
const thanosStoreDown = `fetch series for {cluster="b", replica="A"} Addr: 127.0.0.1:10901 MinTime: 0 MaxTime: 9223372036854775807: rpc error: code = Unavailable desc = connection refused`

// An answer like Thanos Query's over a store that is down (status success, its warnings) is
// partial, its warnings kept bounded and escaped, never raw; a PromQL annotation alone is a
// warning, not a partial answer; and with NoPartial the server is asked to fail instead. MaxSourceResolution is sent
// as max_source_resolution, only when set.
func TestPartialAnswers(t *testing.T) {
	var warnings []string
	var form url.Values
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		form = r.Form
		ws, _ := json.Marshal(warnings)
		_, _ = fmt.Fprintf(w, `{"status":"success","warnings":%s,"data":{"resultType":"vector","result":[{"metric":{"cluster":"a"},"value":[1700000000,"1"]}]}}`, ws)
	}))
	t.Cleanup(srv.Close)
	c, err := NewClient(ClientConfig{URL: srv.URL, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	query := func() *Response {
		t.Helper()
		r, err := c.Query(context.Background(), "up", time.Unix(1700000000, 0))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}

	warnings = nil
	if r := query(); r.Partial || len(r.Warnings) != 0 || form.Get("partial_response") != "" {
		t.Errorf("a whole answer: partial %v, warnings %q, partial_response %q", r.Partial, r.Warnings, form.Get("partial_response"))
	}

	warnings = []string{thanosStoreDown}
	if r := query(); !r.Partial || len(r.Warnings) != 1 || r.Warnings[0] != thanosStoreDown[:len(r.Warnings[0])-3]+"..." && r.Warnings[0] != thanosStoreDown {
		t.Errorf("Thanos' store down: partial %v, warnings %q", r.Partial, r.Warnings)
	}

	warnings = []string{"PromQL info: metric might not be a counter, name does not end in _total/_sum/_count/_bucket: \"up\""}
	if r := query(); r.Partial || len(r.Warnings) != 1 {
		t.Errorf("a PromQL annotation is no partial answer: partial %v, warnings %q", r.Partial, r.Warnings)
	}

	warnings = []string{"store \x1b[31mdown\x1b[0m\r\nfake: line", "   ", strings.Repeat("x", 100000)}
	for range 30 {
		warnings = append(warnings, "store down")
	}
	r := query()
	if !r.Partial || len(r.Warnings) != MaxWarnings+1 || r.Warnings[MaxWarnings] != "and 22 more warnings of the same answer" {
		t.Fatalf("many warnings: partial %v, %d warnings, last %q", r.Partial, len(r.Warnings), r.Warnings[len(r.Warnings)-1])
	}
	for _, w := range r.Warnings {
		if strings.ContainsAny(w, "\x1b\r\n") || len(w) > 300 {
			t.Errorf("warning not escaped or bounded: %q", w)
		}
	}
	if PartialWarning(r.Warnings[MaxWarnings]) {
		t.Error("the count of the warnings left out is no warning of its own")
	}

	c.cfg.NoPartial = true
	query()
	if form.Get("partial_response") != "false" {
		t.Errorf("NoPartial sends partial_response=%q, want false", form.Get("partial_response"))
	}
	if form.Has("max_source_resolution") {
		t.Errorf("max_source_resolution=%q sent unasked", form.Get("max_source_resolution"))
	}
	c.cfg.MaxSourceResolution = "5m"
	query()
	if form.Get("max_source_resolution") != "5m" {
		t.Errorf("MaxSourceResolution 5m sends max_source_resolution=%q", form.Get("max_source_resolution"))
	}
}

// VictoriaMetrics' isPartial makes an answer partial without a warning of its own.
func TestIsPartialAnswer(t *testing.T) {
	c := serve(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"status":"success","isPartial":true,"data":{"resultType":"vector","result":[]}}`))
	})
	r, err := c.Query(context.Background(), "up", time.Unix(1700000000, 0))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Partial || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "isPartial") {
		t.Errorf("isPartial: partial %v, warnings %q", r.Partial, r.Warnings)
	}
}
